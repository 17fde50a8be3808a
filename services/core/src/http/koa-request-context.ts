import { randomUUID } from 'node:crypto';
import type { i18n as I18n } from 'i18next';
import type { Context, Next } from 'koa';
import { matchLanguageHeader } from '../i18n/index.js';
import { DEFAULT_LANGUAGE } from '../domain/constants.js';
import { loggableUrl, type Logger } from '../logging/logger.js';
import { DEFAULT_CONTENT_SECURITY_POLICY, STRICT_TRANSPORT_SECURITY } from './content-security.js';
import { renderError, throwIfUnknownApiRoute } from './koa-error-handler.js';
import type { Metrics } from './metrics.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

export interface RequestContextOptions {
  logger: Logger;
  metrics: Metrics;
  i18n: I18n;
  bodyLimit: string;
  /** Where users reach the product; an https address means every answer is given over TLS. */
  publicUrl?: string;
}

/** Health and metrics probes. */
const isProbe = (path: string) => path.startsWith('/health/') || path === '/metrics';

/**
 * What every request goes through, in one middleware (each extra async layer costs on every
 * request): an id (taken from `X-Request-Id` when well-formed), the caller's language, the logger,
 * the error handler, the security headers (CSP, HSTS over TLS, no framing), and, when it ends, its
 * duration metric and one access-log line.
 */
export function koaRequestContext(options: RequestContextOptions) {
  const { logger, metrics } = options;
  const alwaysTls = options.publicUrl?.startsWith('https:') ?? false;
  const observers = new Map<string, { observe(value: number): void }>();
  return async function requestContext(ctx: Context, next: Next) {
    const incoming = ctx.get('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const state = ctx.state;
    state.requestId = requestId;
    // `requestedLanguage` is what the caller's interface asked for, if anything: what is kept for
    // later (a job's result, say) falls back on the person's saved language rather than the default.
    state.requestedLanguage = matchLanguageHeader(ctx.get('accept-language'));
    state.language = state.requestedLanguage ?? DEFAULT_LANGUAGE;
    state.log = logger;
    const res = ctx.res;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
      throwIfUnknownApiRoute(ctx);
    } catch (thrown) {
      renderError(ctx, thrown, options);
    }
    if (!res.headersSent) {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (!res.hasHeader('Referrer-Policy')) res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
      // No answer may be framed unless its route says otherwise (koaSpa's `framedBySelf`): a
      // policy set by a route gets frame-ancestors if it has none.
      if (!res.hasHeader('X-Frame-Options')) res.setHeader('X-Frame-Options', 'DENY');
      const policy = res.getHeader('Content-Security-Policy');
      if (typeof policy !== 'string') res.setHeader('Content-Security-Policy', DEFAULT_CONTENT_SECURITY_POLICY);
      else if (!/(^|;)\s*frame-ancestors\s/i.test(policy)) res.setHeader('Content-Security-Policy', `${policy}; frame-ancestors 'none'`);
      // ctx.secure reads X-Forwarded-Proto only when the proxy is trusted.
      if (alwaysTls || ctx.secure) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    }

    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = String((ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? state.routeLabel ?? 'unmatched');
    const key = `${ctx.method} ${route} ${ctx.status}`;
    let observer = observers.get(key);
    if (!observer) {
      observer = metrics.httpDuration.labels({ method: ctx.method, route, status: String(ctx.status) });
      observers.set(key, observer);
    }
    observer.observe(seconds);
    // Probes come every few seconds from an orchestrator or a scraper: their lines are for debugging.
    const level = ctx.status >= 500 ? 'error' : isProbe(ctx.path) ? 'debug' : 'info';
    if (logger.isLevelEnabled(level)) {
      logger[level](
        { requestId, method: ctx.method, url: loggableUrl(ctx.originalUrl), status: ctx.status, durationMs: Math.round(seconds * 1000) },
        'request',
      );
    }
  };
}
