import { type AppContext } from '@gatehouse/core';
import { renderError, throwIfUnknownApiRoute, type ErrorBody } from '@gatehouse/core/http';
import { EXTERNAL_LOGIN_PATH, type LoginResponse } from '@gatehouse/contracts';
import type { Context, Middleware } from 'koa';
import { loginResponse, refusalResponse, type Translate } from './login-response.js';
import { Refused } from './refusal.js';

const ACCOUNT_PATHS = '/api/v1/account/';

/** The caller's language for the account calls' messages. */
export function translator(context: AppContext, ctx: Context): Translate {
  return (key, params = {}) => context.i18n.t(key, { lng: ctx.state.language, ...params }) as string;
}

/** Refusals and failures of `/api/v1/account/*` are answered by this middleware, not by the common error handler. */
const answersHere = (path: string) => path.startsWith(ACCOUNT_PATHS) && !path.startsWith(EXTERNAL_LOGIN_PATH);

/**
 * The common error body said as the login response: every message in `errors`, the first one's key
 * in `code`, and in `fieldErrors` the field each message is about (the page checks them again as
 * the user types).
 */
export function asLoginResponse(body: ErrorBody): LoginResponse {
  const messages = body.errors.length ? body.errors.map((error) => error.message) : [body.message];
  const fieldErrors = body.errors.filter((error) => error.field).map(({ field, code, message }) => ({ field, code, message }));
  return {
    ...loginResponse({ code: body.errors[0]?.code ?? body.code, errors: messages }),
    ...(fieldErrors.length ? { fieldErrors } : {}),
    requestId: body.requestId,
  };
}

function answerFailure(context: AppContext, ctx: Context, error: unknown): void {
  if (error instanceof Refused) {
    const { refusal } = error;
    ctx.status = refusal.status;
    if (refusal.retryAfter) ctx.set('Retry-After', String(refusal.retryAfter));
    ctx.body = refusalResponse(refusal, translator(context, ctx));
    return;
  }
  // Logged, counted and translated as any error, then said in the account calls' shape.
  renderError(ctx, error, { i18n: context.i18n, metrics: context.metrics, bodyLimit: context.config.server.bodyLimit });
  ctx.body = asLoginResponse(ctx.body as ErrorBody);
}

/**
 * Every answer of the account calls is the spec's login response (`success`, `errors`,
 * `redirectTo`, ...), refusals included: a wrong password, a password the policy refuses, a
 * missing field, a malformed body, a forged XSRF header, an unknown account path, a failure. The
 * Microsoft sign-in's navigations end on pages of their own.
 */
export function accountAnswers(context: AppContext): Middleware {
  return async (ctx, next) => {
    if (!answersHere(ctx.path)) return next();
    try {
      await next();
      throwIfUnknownApiRoute(ctx);
    } catch (error) {
      answerFailure(context, ctx, error);
    }
  };
}
