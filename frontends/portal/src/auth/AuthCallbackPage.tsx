import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorPage } from '../shell/ErrorPage';
import { PageLoader } from '../shell/PageLoader';
import { loadSession } from './session';

// The authorization code can be redeemed once: StrictMode's second effect run and a re-render
// must share the first attempt instead of failing on a used state.
const attempts = new Map<string, Promise<string>>();

function completeOnce(url: string): Promise<string> {
  let attempt = attempts.get(url);
  if (!attempt) {
    attempt = loadSession().then(({ auth }) => auth.completeSignIn(url));
    attempts.set(url, attempt);
  }
  return attempt;
}

/** `/auth/callback`: redeems the code, then returns to the page the user was on. */
export default function AuthCallbackPage() {
  const { t } = useTranslation('portal');
  const navigate = useNavigate();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    completeOnce(window.location.href).then(
      (returnTo) => {
        if (current) void navigate(returnTo, { replace: true });
      },
      (reason: unknown) => {
        if (current) setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
    return () => {
      current = false;
    };
  }, [navigate]);

  if (error) return <ErrorPage title={t('auth.errorTitle')} text={t('auth.errorText')} detail={error} />;
  return <PageLoader label={t('auth.signingIn')} fullPage />;
}
