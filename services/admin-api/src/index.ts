export { createApp, type AdminApiOptions } from './app.js';
/** Path prefixes this service answers when several services share one origin. */
export const ROUTE_PREFIXES = ['/api/v1/admin', '/api/v1/keys', '/api/v1/account/lock', '/api/v1/account/unlock', '/admin'];
