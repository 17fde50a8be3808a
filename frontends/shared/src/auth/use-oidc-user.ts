import type { User } from 'oidc-client-ts';
import { useSyncExternalStore } from 'react';
import type { OidcAuth } from './auth-service';

/** The signed-in user (null when nobody is), re-rendering on sign-in, renewal and sign-out. */
export function useOidcUser(auth: Pick<OidcAuth, 'subscribe' | 'getUser'>): User | null {
  return useSyncExternalStore(auth.subscribe, auth.getUser);
}
