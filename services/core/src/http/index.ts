// `@gatehouse/core/http`: the Koa kit both services build on (base app, errors, security headers,
// declared routes and their API document).
export * from './base-app.js';
export * from './base-path.js';
export * from './content-security.js';
export * from './dpop.js';
export * from './health.js';
export * from './koa-compress.js';
export * from './koa-error-handler.js';
export * from './koa-request-context.js';
export * from './koa-spa.js';
export * from './koa-xsrf.js';
export * from './openapi.js';
export * from './route.js';
export * from './same-origin.js';
