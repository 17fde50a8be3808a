import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { resolveLanguage } from '../i18n/index.js';
import { loggableUrl, type Logger } from '../logging/logger.js';
import type { Metrics } from './metrics.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * Gives each request an id (taken from `X-Request-Id` when well-formed), a child logger, the
 * caller's language, and records its duration and one access-log line when it ends.
 */
export function koaRequestContext(options: { logger: Logger; metrics: Metrics }) {
  return async function requestContext(ctx: Context, next: Next) {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.language = resolveLanguage(ctx.get('accept-language'));
    ctx.state.log = options.logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? (ctx.state.routeLabel as string | undefined) ?? 'unmatched';
      options.metrics.httpDuration.observe({ method: ctx.method, route: String(route), status: String(ctx.status) }, seconds);
      const level = ctx.status >= 500 ? 'error' : 'info';
      ctx.state.log[level](
        { method: ctx.method, url: loggableUrl(ctx.originalUrl), status: ctx.status, durationMs: Math.round(seconds * 1000) },
        'request',
      );
    }
  };
}
