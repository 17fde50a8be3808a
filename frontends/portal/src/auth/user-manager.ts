import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { PortalConfig } from '../api/portal-config';

export const CALLBACK_PATH = '/auth/callback';

/**
 * The portal's OIDC client: authorization code with PKCE (S256, automatic), tokens kept in
 * localStorage so every tab shares them. oidc-client-ts's own silent renew is off: it would
 * refresh from every tab at once, and the rotating refresh token allows only one.
 */
export function createUserManager(config: PortalConfig, origin = window.location.origin): UserManager {
  return new UserManager({
    authority: config.authority,
    client_id: config.clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope: config.scopes,
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    automaticSilentRenew: false,
    monitorSession: false,
    // The provider puts the profile claims in the ID token; no extra userinfo round trip.
    loadUserInfo: false,
  });
}
