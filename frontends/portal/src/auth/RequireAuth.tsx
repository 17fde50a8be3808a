import { useSignInRedirect } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../shell/PageLoader';
import { useAuth, useAuthUser } from './auth-context';

/** Shows its children to a signed-in user; anybody else is sent to the sign-in, to come back here. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation('portal');
  const auth = useAuth();
  const user = useAuthUser();
  const { ended, returnTo, error } = useSignInRedirect(auth, user);

  if (user) return <>{children}</>;
  if (ended === 'signing-out') return <PageLoader label={t('auth.signingOut')} />;
  if (ended === 'closed-elsewhere') {
    return (
      <Alert
        type="info"
        showIcon
        title={t('auth.closedElsewhere')}
        action={
          <Button type="primary" onClick={() => void auth.signIn(returnTo)}>
            {t('shell.login')}
          </Button>
        }
        className="shell-page-alert"
      />
    );
  }
  if (error) {
    return <Alert type="error" showIcon title={t('auth.errorTitle')} description={error} className="shell-page-alert" />;
  }
  return <PageLoader label={t('auth.redirectingToSignIn')} />;
}
