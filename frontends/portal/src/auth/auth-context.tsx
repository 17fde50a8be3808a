import { useOidcUser, type OidcAuth as PortalAuth } from '@gatehouse/frontend-shared';
import type { User } from 'oidc-client-ts';
import { createContext, useContext, type ReactNode } from 'react';
import type { PortalConfig } from '../api/portal-config';
import { profileOf, type PortalProfile } from './profile';

interface AuthContextValue {
  auth: PortalAuth;
  config: PortalConfig;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ auth, config, children }: AuthContextValue & { children: ReactNode }) {
  return <AuthContext.Provider value={{ auth, config }}>{children}</AuthContext.Provider>;
}

function useAuthContext(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('AuthProvider is missing');
  return value;
}

export function useAuth(): PortalAuth {
  return useAuthContext().auth;
}

export function usePortalConfig(): PortalConfig {
  return useAuthContext().config;
}

/** The signed-in user (null when nobody is), re-rendering on sign-in, renewal and sign-out. */
export function useAuthUser(): User | null {
  return useOidcUser(useAuthContext().auth);
}

export function useProfile(): PortalProfile | undefined {
  return profileOf(useAuthUser());
}
