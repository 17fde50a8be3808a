import { createSessionLoader, type OidcSession } from '@gatehouse/frontend-shared';
import { ADMIN_BASENAME } from '../routes';
import { fetchAdminConfig, type AdminConfig } from './admin-config';

export type AdminSession = OidcSession<AdminConfig>;

/** The callback route inside the console: `${origin}/admin/auth/callback` for the provider. */
export const CALLBACK_PATH = '/auth/callback';

/**
 * The configuration and the sign-in machinery of the console, built once per page. Its tokens,
 * sign-in times and refresh lock are its own: the portal's session on the same origin is another
 * client's and is left alone.
 */
export const loadAdminSession: () => Promise<AdminSession> = createSessionLoader({
  loadConfig: fetchAdminConfig,
  client: (config) => ({
    authority: config.authority,
    clientId: config.adminClientId,
    // With the admin API scope: without it the provider issues a token the admin API refuses (insufficient_scope).
    scopes: config.adminScopes,
  }),
  placement: { basePath: ADMIN_BASENAME, callbackPath: CALLBACK_PATH },
  storageKeyPrefix: 'gatehouse.admin',
  lockName: 'gatehouse-token-refresh:admin',
});
