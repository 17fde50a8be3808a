export { createApp, type IdpApp, type IdpOptions } from './app.js';
export { ProviderHost } from './oidc/provider-host.js';
export { rotateSigningKeys } from './oidc/keys.js';
export { KEY_RETIREMENT_SECONDS, TTL } from './oidc/ttl.js';
