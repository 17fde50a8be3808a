import { bodyParser } from '@koa/bodyparser';
import Koa, { type Context, type Next } from 'koa';
import type { AppContext } from '../context.js';
import { operationalRoutes } from './health.js';
import { koaErrorHandler } from './koa-error-handler.js';
import { koaRequestContext } from './koa-request-context.js';

/** Headers every response carries. */
export function koaSecurityHeaders() {
  return async function securityHeaders(ctx: Context, next: Next) {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', ctx.response.get('Referrer-Policy') || 'strict-origin-when-cross-origin');
    ctx.set('X-Frame-Options', 'SAMEORIGIN');
  };
}

/** JSON and form bodies for API routes, bounded by `server.bodyLimit`. */
export function koaJsonBody(context: AppContext) {
  const limit = context.config.server.bodyLimit;
  return bodyParser({ enableTypes: ['json', 'form'], jsonLimit: limit, formLimit: limit });
}

/**
 * A Koa app with what every service shares: request ids and access logs, the error handler,
 * security headers, health and metrics. Services add their routes on top.
 */
export function createBaseApp(context: AppContext): Koa {
  const app = new Koa({ proxy: context.config.server.trustProxy });
  // The error handler answers every error; Koa's own default would print it a second time.
  app.silent = true;
  app.use(koaRequestContext({ logger: context.logger, metrics: context.metrics }));
  app.use(koaErrorHandler({ i18n: context.i18n, metrics: context.metrics, bodyLimit: context.config.server.bodyLimit }));
  app.use(koaSecurityHeaders());
  const operational = operationalRoutes(context);
  app.use(operational.routes());
  return app;
}
