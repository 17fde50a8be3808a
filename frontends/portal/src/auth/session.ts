import { fetchPortalConfig, type PortalConfig } from '../api/portal-config';
import { AuthService } from './auth-service';
import { createTokenLock } from './token-lock';
import { createUserManager } from './user-manager';

export interface PortalSession {
  auth: AuthService;
  config: PortalConfig;
}

let pending: Promise<PortalSession> | undefined;

/**
 * The configuration and the sign-in machinery, built once per page: the signed-in shell and the
 * callback page share them.
 */
export function loadSession(): Promise<PortalSession> {
  pending ??= (async () => {
    const config = await fetchPortalConfig();
    const auth = new AuthService({
      userManager: createUserManager(config),
      lock: createTokenLock(),
      storage: window.localStorage,
      window,
    });
    await auth.initialize();
    return { auth, config };
  })();
  // A failed start (the service unreachable) may be retried by the next visit of a page.
  pending.catch(() => {
    pending = undefined;
  });
  return pending;
}
