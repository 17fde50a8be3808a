import { applyChosenLanguage } from '../i18n/chosen-language';
import { AuthService } from './auth-service';
import { createTokenLock, TOKEN_REFRESH_LOCK } from './token-lock';
import { createUserManager, type OidcClientSettings, type UserManagerPlacement } from './user-manager';

export interface OidcSession<Config> {
  auth: AuthService;
  config: Config;
}

export interface SessionLoaderOptions<Config> {
  /** Reads the public configuration (`GET /api/v1/config`). */
  loadConfig: () => Promise<Config>;
  /** The provider and this SPA's client in that configuration. */
  client: (config: Config) => OidcClientSettings;
  placement?: UserManagerPlacement;
  /** See `AuthServiceOptions.storageKeyPrefix`. */
  storageKeyPrefix?: string;
  /** Web Lock name; SPAs with different clients may refresh side by side. */
  lockName?: string;
}

/**
 * Returns `loadSession()`: the configuration and the sign-in machinery, built once per page (the
 * signed-in shell and the callback page share them). A failed start (the service unreachable)
 * is forgotten, so the next call tries again.
 */
export function createSessionLoader<Config>(options: SessionLoaderOptions<Config>): () => Promise<OidcSession<Config>> {
  let pending: Promise<OidcSession<Config>> | undefined;
  return () => {
    pending ??= (async () => {
      const config = await options.loadConfig();
      const auth = new AuthService({
        userManager: createUserManager(options.client(config), options.placement),
        lock: createTokenLock(undefined, options.lockName ?? TOKEN_REFRESH_LOCK),
        callbackPath: options.placement?.callbackPath,
        storageKeyPrefix: options.storageKeyPrefix,
        storage: window.localStorage,
        window,
        // The language the person chose in their profile follows them to this device.
        onSignedIn: (user) => applyChosenLanguage(user.profile),
      });
      await auth.initialize();
      return { auth, config };
    })();
    pending.catch(() => {
      pending = undefined;
    });
    return pending;
  };
}
