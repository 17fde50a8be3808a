import Spin from 'antd/es/spin';
import { useAccountTranslation } from '../use-account-translation';
import './account.css';

/** A spinner with its reason spelled out for screen readers. */
export function Loading() {
  const { t } = useAccountTranslation();
  return (
    <div className="account-card-loading" role="status">
      <Spin size="large" />
      <span>{t('layout.loading')}</span>
    </div>
  );
}
