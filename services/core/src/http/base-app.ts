import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { AppContext } from '../context.js';
import { basePathOf, koaBasePath, koaBasePathLinks } from './base-path.js';
import { operationalRoutes } from './health.js';
import { koaCompress } from './koa-compress.js';
import { koaRequestContext } from './koa-request-context.js';
import { koaTracing } from '../telemetry/http.js';

/** JSON and form bodies for API routes, bounded by `server.bodyLimit`. */
export function koaJsonBody(context: AppContext) {
  const limit = context.config.server.bodyLimit;
  return bodyParser({ enableTypes: ['json', 'form'], jsonLimit: limit, formLimit: limit });
}

/** JSON bodies of SCIM (`application/scim+json`, RFC 7644 §3.1, among the parser's JSON types, or plain JSON), strictly objects and arrays. */
export function koaScimBody(context: AppContext) {
  return bodyParser({ enableTypes: ['json'], jsonLimit: context.config.server.bodyLimit, jsonStrict: true });
}

/**
 * A Koa app with what every service shares: request ids and access logs, the error handler,
 * security headers, health and metrics, compression. Services add their routes on top.
 */
export function createBaseApp(context: AppContext): Koa {
  const app = new Koa({ proxy: context.config.server.trustProxy });
  // The error handler answers every error; Koa's own default would print it a second time.
  app.silent = true;
  // With tracing on, the request's span wraps everything after it.
  const tracing = koaTracing();
  if (tracing) app.use(tracing);
  app.use(
    koaRequestContext({
      logger: context.logger,
      metrics: context.metrics,
      i18n: context.i18n,
      bodyLimit: context.config.server.bodyLimit,
      publicUrl: context.config.server.publicUrl,
    }),
  );
  // Under the base path of the public URL, when it has one; its refusals answer in the caller's language.
  const base = basePathOf(context.config.server.publicUrl);
  if (base) app.use(koaBasePath(base));
  const operational = operationalRoutes(context).routes() as unknown as Koa.Middleware;
  app.use((ctx, next) => (ctx.path.startsWith('/health/') || ctx.path === '/metrics' ? operational(ctx, next) : next()));
  // Answers over 1 KB made per request (JSON, the HTML shell); built files come precompressed.
  app.use(koaCompress({ threshold: 1024 }));
  if (base) app.use(koaBasePathLinks(base));
  return app;
}
