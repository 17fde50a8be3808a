import { createSessionLoader, type OidcSession } from '@gatehouse/frontend-shared';
import { fetchPortalConfig, type PortalConfig } from '../api/portal-config';

export type PortalSession = OidcSession<PortalConfig>;

/**
 * The configuration and the sign-in machinery, built once per page: the signed-in shell and the
 * callback page share them. The portal is served at the root, with its callback at /auth/callback.
 */
export const loadSession: () => Promise<PortalSession> = createSessionLoader({
  loadConfig: fetchPortalConfig,
  client: (config) => ({ authority: config.authority, clientId: config.clientId, scopes: config.scopes }),
});
