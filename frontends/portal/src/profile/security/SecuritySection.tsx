import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import { useTranslation } from 'react-i18next';
import { useSecurityQuery } from '../../api/portal-api';
import { AuthenticatorSection } from './AuthenticatorSection';
import { PasskeysSection } from './PasskeysSection';
import { RecentSignInProvider } from './recent-sign-in';
import { RecoveryCodesSection } from './RecoveryCodesSection';
import { SessionsSection } from './SessionsSection';
import './security.css';

/**
 * "My security" (/profile/security): passkeys, authenticator app, recovery codes, and the sessions
 * where the user is signed in. A change made long after signing in asks for the password first.
 */
export default function SecuritySection() {
  const { t } = useTranslation('portal');
  const overview = useSecurityQuery();

  if (overview.isError) {
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        title={t('security.loadError')}
        action={<Button onClick={() => void overview.refetch()}>{t('security.retry')}</Button>}
      />
    );
  }
  if (!overview.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  return (
    <RecentSignInProvider recentUntil={overview.data.recentUntil}>
      <div className="security-page">
        <PasskeysSection overview={overview.data} />
        <AuthenticatorSection overview={overview.data} />
        <RecoveryCodesSection overview={overview.data} />
        <SessionsSection />
      </div>
    </RecentSignInProvider>
  );
}
