import { PlaceholderPage } from '@gatehouse/frontend-shared';
import { useTranslation } from 'react-i18next';

export function AccountPage() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage title={t('portal.account.title')}>
      <p>{t('portal.account.placeholder')}</p>
    </PlaceholderPage>
  );
}
