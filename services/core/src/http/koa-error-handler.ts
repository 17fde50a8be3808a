import type { ErrorCode } from '@gatehouse/contracts';
import type { Context } from 'koa';
import type { i18n as I18n } from 'i18next';
import { AppError } from '../errors/app-error.js';
import { isDatabaseUnavailable, mapDatabaseError } from '../errors/database-errors.js';
import type { Metrics } from './metrics.js';
import { recordErrorOnActiveSpan } from '../telemetry/tracing.js';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'errors.validation',
  401: 'errors.unauthorized',
  403: 'errors.forbidden',
  404: 'errors.not_found',
  405: 'errors.not_found',
  413: 'errors.payload_too_large',
  415: 'errors.unsupported_media_type',
  503: 'errors.service_unavailable',
};

/** Converts whatever was thrown into an AppError; unknown errors become a 500. */
export function toAppError(error: unknown, bodyLimit: string): AppError {
  if (error instanceof AppError) return error;
  const fromDatabase = mapDatabaseError(error);
  if (fromDatabase) return fromDatabase;
  // Out of reach for a moment (restarting, failing over): the caller may try again shortly.
  if (isDatabaseUnavailable(error)) return new AppError('errors.service_unavailable', 503, { retryAfter: 1 });
  const e = error as { status?: number; statusCode?: number; expose?: boolean; type?: string };
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Body-parser failures carry raw-body's `type`; everything else maps by status.
    if (status === 413 || e.type === 'entity.too.large') return new AppError('errors.payload_too_large', 413, { limit: bodyLimit });
    if (status === 400 && (e.type === 'entity.parse.failed' || error instanceof SyntaxError)) {
      return new AppError('errors.invalid_json', 400);
    }
    return new AppError(STATUS_CODES[status] ?? 'errors.validation', status);
  }
  return new AppError('errors.internal', 500);
}

/** The common error answer: the code, its message, the fields refused, and the request's id. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  errors: Array<{ field: string; code: ErrorCode; message: string }>;
  requestId: string | undefined;
}

/** Renders an error as `{ code, message, errors, requestId }` in the caller's language. */
export function renderError(ctx: Context, thrown: unknown, options: { i18n: I18n; metrics: Metrics; bodyLimit: string }): void {
  const error = toAppError(thrown, options.bodyLimit);
  const requestId = ctx.state.requestId as string | undefined;
  if (error.status === 503) ctx.state.log?.warn({ err: (thrown as Error).message, requestId }, 'a dependency is unavailable');
  else if (error.status >= 500) ctx.state.log?.error({ err: thrown, requestId }, 'unhandled error');
  if (error.status >= 500) recordErrorOnActiveSpan(thrown);
  const lng = ctx.state.language as string | undefined;
  const t = (key: string, params: Record<string, unknown> = {}) => options.i18n.t(key, { lng, ...params }) as string;
  ctx.status = error.status;
  if ((error.status === 429 || error.status === 503) && typeof error.params.retryAfter === 'number') ctx.set('Retry-After', String(error.params.retryAfter));
  ctx.type = 'application/json';
  const body: ErrorBody = {
    code: error.code,
    message: t(error.code, { ...error.params, requestId }),
    errors: error.errors.map((fe) => ({ field: fe.field, code: fe.code, message: t(fe.code, { field: fe.field, ...fe.params }) })),
    requestId,
  };
  ctx.body = body;
  options.metrics.httpErrors.inc({ code: error.code });
}

/** Unknown `/api/*` routes answer a JSON 404 rather than nothing. */
export function throwIfUnknownApiRoute(ctx: Context): void {
  if (ctx.status === 404 && ctx.body === undefined && isApiPath(ctx.path)) {
    throw new AppError('errors.route_not_found', 404, { method: ctx.method, path: ctx.path });
  }
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}
