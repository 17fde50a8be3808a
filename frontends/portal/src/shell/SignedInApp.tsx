import { useI18nInstance } from '@gatehouse/frontend-shared';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { AuthProvider } from '../auth/auth-context';
import type { PortalAuth } from '../auth/auth-service';
import { loadSession } from '../auth/session';
import { UnauthorizedRetry } from '../auth/unauthorized-retry';
import type { PortalConfig } from '../api/portal-config';
import { createPortalStore } from '../store/store';
import { ErrorPage } from './ErrorPage';
import { PageLoader } from './PageLoader';
import { ShellLayout } from './ShellLayout';

export interface SessionLike {
  auth: PortalAuth;
  config: PortalConfig;
}

export interface SignedInAppProps {
  /** Tests hand in their own session. */
  load?: () => Promise<SessionLike>;
}

type StartState = { status: 'loading' } | { status: 'ready'; session: SessionLike } | { status: 'error'; message: string };

function SignedInShell({ session }: { session: SessionLike }) {
  // The instance itself: a store made again at a language change would drop every cached answer.
  const i18n = useI18nInstance();
  const { auth, config } = session;
  const store = useMemo(
    () =>
      createPortalStore({
        accessToken: () => auth.accessToken(),
        unauthorized: new UnauthorizedRetry((rejectedToken) => auth.renew({ rejectedToken })),
        language: () => i18n.resolvedLanguage ?? i18n.language,
      }),
    [auth, i18n],
  );
  return (
    <AuthProvider auth={auth} config={config}>
      <ReduxProvider store={store}>
        <ShellLayout />
      </ReduxProvider>
    </AuthProvider>
  );
}

/**
 * The signed-in part of the portal (home, profile), loaded on demand so the sign-in page never
 * downloads oidc-client-ts, Redux or the shell. It starts with the spec's authenticating state (a
 * loader), then the shell, or the ERROR page when the start fails.
 */
export default function SignedInApp({ load = loadSession }: SignedInAppProps) {
  const { t } = useTranslation('portal');
  const [state, setState] = useState<StartState>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    load().then(
      (session) => current && setState({ status: 'ready', session }),
      (error: unknown) => current && setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [load]);

  if (state.status === 'loading') return <PageLoader label={t('auth.signingIn')} fullPage />;
  if (state.status === 'error') {
    return <ErrorPage title={t('auth.errorTitle')} text={t('auth.errorText')} detail={state.message} backLabel={t('auth.backHome')} />;
  }
  return <SignedInShell session={state.session} />;
}
