import { AppError, type AppContext } from '@gatehouse/core';
import type { Context, Middleware } from 'koa';
import { InvalidTokenError } from '../../auth/access-token.js';
import { externalCallerVerifier, type ExternalCaller } from './caller.js';
import type { AdminContext } from '../../admin-context.js';

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

/** What the authentication left for the routes: the caller, and the refusal its call gets once it is logged. */
interface ExternalState {
  caller: ExternalCaller;
  /** A valid token whose application may not use the API (stopped, the product's own, an owner who no longer administers it). */
  refusal?: AppError;
}

/**
 * Authenticates every call of the external API (RFC 6750): a missing, unknown, malformed, expired
 * or revoked token, or one issued for another audience or to a user rather than to the client
 * itself, is a 401 with a `WWW-Authenticate` challenge, before any route runs and without a log
 * row (there is no caller to name). A valid token refused for what it is (its application may not
 * use the API) reaches its route, which logs the call and answers the refusal.
 */
export function koaExternalAuth(context: AdminContext): Middleware {
  const verifier = externalCallerVerifier(context);
  return async function externalAuth(ctx, next) {
    const token = BEARER.exec(ctx.get('authorization'))?.[1];
    if (!token) refuse(ctx, 'Bearer');
    let verified: ExternalState;
    try {
      verified = await verifier.verify(token);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      ctx.state.log?.debug({ reason: error.reason, requestId: ctx.state.requestId }, 'external API token refused');
      refuse(ctx, 'Bearer error="invalid_token"');
    }
    ctx.state.external = verified;
    await next();
  };
}

// The error handler keeps headers already set, so the challenge survives the thrown error.
function refuse(ctx: Context, challenge: string): never {
  ctx.set('WWW-Authenticate', challenge);
  throw new AppError('errors.unauthorized', 401);
}

/** The authenticated caller; a route reached without koaExternalAuth in front fails closed with a 401. */
export function externalCallerOf(ctx: Context): ExternalCaller {
  const state = ctx.state.external as ExternalState | undefined;
  if (!state) throw new AppError('errors.unauthorized', 401);
  return state.caller;
}

/** The refusal the caller's token gets, if any (answered once the call is logged). */
export function externalRefusalOf(ctx: Context): AppError | undefined {
  return (ctx.state.external as ExternalState | undefined)?.refusal;
}
