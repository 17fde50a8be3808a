import { useSignInCallback } from '@gatehouse/frontend-shared';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Splash } from '../shell/Splash';
import { ADMIN_BASENAME } from '../routes';
import { loadAdminSession } from './session';

export interface AuthCallbackPageProps {
  load?: () => Promise<{ auth: { completeSignIn(url: string): Promise<string> } }>;
}

/** `/admin/auth/callback`: redeems the code, then returns to the console page the user was on. */
export default function AuthCallbackPage({ load = loadAdminSession }: AuthCallbackPageProps) {
  const { t } = useTranslation('admin');
  const complete = useCallback((url: string) => load().then(({ auth }) => auth.completeSignIn(url)), [load]);
  const error = useSignInCallback(complete);

  if (error) {
    return (
      <Result
        status="error"
        title={t('shell.errorTitle')}
        subTitle={error}
        extra={
          // A full page load to the console's home: it starts a new sign-in from scratch.
          <Button type="primary" href={`${ADMIN_BASENAME}/`}>
            {t('shell.retry')}
          </Button>
        }
      />
    );
  }
  return <Splash label={t('shell.signingIn')} />;
}
