import Spin from 'antd/es/spin';

export interface PageLoaderProps {
  label: string;
  /** Centres the loader in the whole window rather than in the content area. */
  fullPage?: boolean;
}

/** A spinner with its reason spelled out for screen readers. */
export function PageLoader({ label, fullPage = false }: PageLoaderProps) {
  return (
    <div className={fullPage ? 'page-loader page-loader--full' : 'page-loader'} role="status" aria-live="polite">
      <Spin size="large" />
      <span className="page-loader__label">{label}</span>
    </div>
  );
}
