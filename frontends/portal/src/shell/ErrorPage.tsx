import { productPath } from '@gatehouse/frontend-shared';

export interface ErrorPageProps {
  title: string;
  text: string;
  /** The error itself, as the spec's ERROR page shows it. */
  detail?: string;
  backLabel?: string;
}

export function ErrorPage({ title, text, detail, backLabel }: ErrorPageProps) {
  return (
    <main className="gh-page" aria-labelledby="error-page-title">
      <div className="gh-page__card">
        <h1 id="error-page-title" className="gh-page__title">
          {title}
        </h1>
        <p>{text}</p>
        {detail && (
          <p role="alert" className="error-page__detail">
            {detail}
          </p>
        )}
        {/* A full page load: after a failed sign-in nothing of this page's state is worth keeping. */}
        {backLabel && <a href={productPath('/')}>{backLabel}</a>}
      </div>
    </main>
  );
}
