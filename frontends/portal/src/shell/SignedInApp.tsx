import { useApiDependencies, useLoad, type OidcAuth as PortalAuth } from '@gatehouse/frontend-shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { AuthProvider } from '../auth/auth-context';
import { loadSession } from '../auth/session';
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

function SignedInShell({ session }: { session: SessionLike }) {
  const { auth, config } = session;
  const dependencies = useApiDependencies(auth);
  const store = useMemo(() => createPortalStore(dependencies), [dependencies]);
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
  const { state } = useLoad(load);

  if (state.status === 'loading') return <PageLoader label={t('auth.signingIn')} fullPage />;
  if (state.status === 'error') {
    return <ErrorPage title={t('auth.errorTitle')} text={t('auth.errorText')} detail={state.message} backLabel={t('auth.backHome')} />;
  }
  return <SignedInShell session={state.value} />;
}
