import { PlaceholderPage } from '@gatehouse/frontend-shared';
import { useTranslation } from 'react-i18next';

export function DashboardPage() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage title={t('admin.dashboard.title')}>
      <p>{t('admin.dashboard.placeholder', { productName: t('common.productName') })}</p>
    </PlaceholderPage>
  );
}
