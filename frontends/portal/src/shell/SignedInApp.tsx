import { useLoad, useSignInRedirect, type OidcAuth as PortalAuth } from '@gatehouse/frontend-shared';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { loadSession } from '../auth/session';
import type { PortalConfig } from '../api/portal-config';
import { ErrorPage } from './ErrorPage';
import { PageLoader } from './PageLoader';

// The shell, Redux and the API layer load once a session exists: a first visit that goes on to the
// sign-in page never downloads them.
const SignedInShell = lazy(() => import('./SignedInShell'));

export interface SessionLike {
  auth: PortalAuth;
  config: PortalConfig;
}

export interface SignedInAppProps {
  /** Tests hand in their own session. */
  load?: () => Promise<SessionLike>;
}

/** A visitor with no session goes straight to the sign-in, without the shell being downloaded. */
function RedirectToSignIn({ auth }: { auth: PortalAuth }) {
  const { t } = useTranslation('portal');
  const { error } = useSignInRedirect(auth, null);
  if (error) return <ErrorPage title={t('auth.errorTitle')} text={t('auth.errorText')} detail={error} backLabel={t('auth.backHome')} />;
  return <PageLoader label={t('auth.redirectingToSignIn')} fullPage />;
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
  const { auth } = state.value;
  // A session that ended (signed out here or in another tab) still shows the shell, which says so.
  if (!auth.getUser() && !auth.sessionEnd()) return <RedirectToSignIn auth={auth} />;
  return (
    <Suspense fallback={<PageLoader label={t('auth.signingIn')} fullPage />}>
      <SignedInShell session={state.value} />
    </Suspense>
  );
}
