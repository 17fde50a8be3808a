import { useSignInCallback } from '@gatehouse/frontend-shared';
import { useTranslation } from 'react-i18next';
import { ErrorPage } from '../shell/ErrorPage';
import { PageLoader } from '../shell/PageLoader';
import { loadSession } from './session';

const completeSignIn = (url: string) => loadSession().then(({ auth }) => auth.completeSignIn(url));

/** `/auth/callback`: redeems the code, then returns to the page the user was on. */
export default function AuthCallbackPage() {
  const { t } = useTranslation('portal');
  const error = useSignInCallback(completeSignIn);

  if (error) return <ErrorPage title={t('auth.errorTitle')} text={t('auth.errorText')} detail={error} />;
  return <PageLoader label={t('auth.signingIn')} fullPage />;
}
