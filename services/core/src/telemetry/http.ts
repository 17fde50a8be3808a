import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import type { Context, Middleware, Next } from 'koa';
import { loggableUrl } from '../logging/logger.js';
import { activeTracer, recordError } from './tracing.js';

/** The id the product gives each request (the `X-Request-Id` answer header). */
export const ATTR_REQUEST_ID = 'gatehouse.request.id';

/**
 * One server span per request, continuing the caller's trace when it sends a W3C `traceparent`;
 * named by method and matched route once the route is known. Undefined while tracing is off, so the
 * app has no extra layer then. Placed first, so the request's own middleware (its id, the error
 * handler) runs inside the span.
 */
export function koaTracing(): Middleware | undefined {
  const tracer = activeTracer();
  if (!tracer) return undefined;
  return async function tracing(ctx: Context, next: Next) {
    const parent = propagation.extract(context.active(), ctx.headers);
    const method = ctx.method;
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_PATH]: loggableUrl(ctx.path) } }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } catch (error) {
      recordError(span, error);
      throw error;
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? (ctx.state.routeLabel as string | undefined);
      const status = ctx.status;
      if (route) {
        span.setAttribute(ATTR_HTTP_ROUTE, route);
        span.updateName(`${method} ${route}`);
      }
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      const requestId = ctx.state.requestId as string | undefined;
      if (requestId) span.setAttribute(ATTR_REQUEST_ID, requestId);
      // A server's 4xx is the caller's mistake, not the span's (OpenTelemetry's HTTP conventions).
      if (status >= 500) {
        span.setAttribute(ATTR_ERROR_TYPE, String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    }
  };
}
