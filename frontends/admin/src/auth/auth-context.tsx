import { useOidcUser, type OidcAuth } from '@gatehouse/frontend-shared';
import type { User } from 'oidc-client-ts';
import { createContext, useContext, type ReactNode } from 'react';

const AuthContext = createContext<OidcAuth | null>(null);

export function AuthProvider({ auth, children }: { auth: OidcAuth; children: ReactNode }) {
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}

export function useAuth(): OidcAuth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('AuthProvider is missing');
  return auth;
}

/** The signed-in user (null when nobody is), re-rendering on sign-in, renewal and sign-out. */
export function useAuthUser(): User | null {
  return useOidcUser(useAuth());
}
