import { IndexedDbDPoPStore, UserManager, WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts';
import { productBasePath } from '../base-path';
import { DEFAULT_CALLBACK_PATH } from './return-to';

/** The provider and the client, as `GET /api/v1/config` gives them. */
export interface OidcClientSettings {
  /** OIDC issuer. */
  authority: string;
  clientId: string;
  /** Space-separated. */
  scopes: string;
}

export interface UserManagerPlacement {
  /** Where the SPA is served: the product's base path for the portal, and '/admin' under it for the console. */
  basePath?: string;
  /** The callback route inside the SPA. */
  callbackPath?: string;
  origin?: string;
}

/** The absolute callback and post-logout URLs of an SPA served under `basePath`. */
export function redirectUris({ basePath = productBasePath(), callbackPath = DEFAULT_CALLBACK_PATH, origin = window.location.origin }: UserManagerPlacement = {}) {
  return { redirectUri: `${origin}${basePath}${callbackPath}`, postLogoutRedirectUri: `${origin}${basePath}/` };
}

/** How long a call to the provider (discovery, token, revocation, refresh) may take before it fails. */
export const PROVIDER_REQUEST_TIMEOUT_S = 30;

/** Where an SPA's DPoP key pair is kept: oidc-client-ts's store, one entry per client. */
export type DPoPKeyStore = NonNullable<UserManagerSettings['dpop']>['store'];

/**
 * An SPA's OIDC client: authorization code with PKCE (S256, automatic), tokens kept in
 * localStorage so every tab shares them. oidc-client-ts's own silent renew is off: it would
 * refresh from every tab at once, and the rotating refresh token allows only one. A silent
 * sign-in without a refresh token (after another tab's sign-out) runs in a hidden frame that comes
 * back to the SPA's callback page, the redirect URI the provider already knows; that page hands the
 * answer to the window that opened the frame.
 *
 * The tokens are sender-constrained (DPoP, RFC 9449): oidc-client-ts makes a P-256 key pair whose
 * private key cannot be exported (WebCrypto `extractable: false`) and keeps it in `dpopStore`
 * (IndexedDB, shared by the origin's tabs like localStorage). The authorization code is bound to
 * it (`dpop_jkt`), every token request carries a proof, and so the provider binds the access and
 * refresh tokens to it: tokens copied out of storage are useless anywhere else, for the key cannot
 * be copied out of the browser. Removing the user (sign-out, a session found over) removes the key
 * pair too.
 */
export function userManagerSettings(
  settings: OidcClientSettings,
  placement: UserManagerPlacement = {},
  dpopStore: DPoPKeyStore = new IndexedDbDPoPStore(),
): UserManagerSettings {
  const { redirectUri, postLogoutRedirectUri } = redirectUris(placement);
  return {
    authority: settings.authority,
    client_id: settings.clientId,
    redirect_uri: redirectUri,
    silent_redirect_uri: redirectUri,
    post_logout_redirect_uri: postLogoutRedirectUri,
    response_type: 'code',
    scope: settings.scopes,
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    automaticSilentRenew: false,
    monitorSession: false,
    // The provider puts the profile claims in the ID token; no extra userinfo round trip.
    loadUserInfo: false,
    // A call to the provider that never answers (discovery, the code exchange, a revocation) fails
    // instead; a refresh is bounded by AuthService.renew, which holds every tab's lock meanwhile.
    requestTimeoutInSeconds: PROVIDER_REQUEST_TIMEOUT_S,
    dpop: { bind_authorization_code: true, store: dpopStore },
  };
}

/** An SPA's OIDC client with the settings of {@link userManagerSettings}. */
export function createUserManager(settings: OidcClientSettings, placement: UserManagerPlacement = {}): UserManager {
  return new UserManager(userManagerSettings(settings, placement));
}
