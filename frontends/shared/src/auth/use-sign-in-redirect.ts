import type { User } from 'oidc-client-ts';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import type { OidcAuth, SessionEnd } from './auth-service';

export interface SignInRedirect {
  /** Why there is no user although one was signed in (then no sign-in is started); see {@link OidcAuth.sessionEnd}. */
  ended: SessionEnd | undefined;
  /** The current page, where the sign-in comes back to. */
  returnTo: string;
  /** Why the sign-in could not start. */
  error: string | undefined;
}

/**
 * Sends a visitor (`user` null) to the provider's sign-in, to come back to the current page, unless
 * the session has just ended in this tab or another.
 */
export function useSignInRedirect(auth: OidcAuth, user: User | null): SignInRedirect {
  const location = useLocation();
  const [error, setError] = useState<string>();
  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  const ended = user ? undefined : auth.sessionEnd();

  useEffect(() => {
    if (user || ended) return;
    auth.signIn(returnTo).catch((reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)));
  }, [auth, user, ended, returnTo]);

  return { ended, returnTo, error };
}
