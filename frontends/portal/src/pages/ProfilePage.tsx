import { useTranslation } from 'react-i18next';

/** Placeholder of the profile area (/profile/*) until its screens are built. */
export default function ProfilePage() {
  const { t } = useTranslation('portal');
  return (
    <section className="profile-placeholder" aria-labelledby="profile-title">
      <h1 id="profile-title">{t('profile.title')}</h1>
      <p>{t('profile.placeholder')}</p>
    </section>
  );
}
