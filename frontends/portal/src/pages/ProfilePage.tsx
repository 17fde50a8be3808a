import { PlaceholderPage } from '@gatehouse/frontend-shared';
import { useTranslation } from 'react-i18next';

export function ProfilePage() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage title={t('portal.profile.title')}>
      <p>{t('portal.profile.placeholder')}</p>
    </PlaceholderPage>
  );
}
