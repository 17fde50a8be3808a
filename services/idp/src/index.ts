export { createApp, type IdpApp, type IdpOptions } from './app.js';
export { ProviderHost } from './oidc/provider-host.js';
export { rotateSigningKeys } from './oidc/keys.js';
export { KEY_RETIREMENT_SECONDS, TTL } from './oidc/ttl.js';
/** Path prefixes this service answers when several services share one origin. */
export const ROUTE_PREFIXES = ['/oidc', '/api/v1/account', '/api/v1/profile', '/api/v1/config', '/api/v1/online', '/api/v1/applications', '/api/v1/avatar', '/hubs'];
