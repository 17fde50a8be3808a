import { PlaceholderPage } from '@gatehouse/frontend-shared';
import { useTranslation } from 'react-i18next';
import { usePortalConfig } from '../api/use-portal-config';

export function HomePage() {
  const { t } = useTranslation();
  const state = usePortalConfig();
  const productName = t('common.productName');

  return (
    <PlaceholderPage title={productName}>
      {state.status === 'loading' && <p role="status">{t('common.loading')}</p>}
      {state.status === 'error' && <p role="alert">{t('portal.home.loadError')}</p>}
      {state.status === 'ready' && (
        <>
          <p>{t('portal.home.welcome', { productName })}</p>
          <p>{t('portal.home.environment', { environment: state.config.environment })}</p>
        </>
      )}
    </PlaceholderPage>
  );
}
