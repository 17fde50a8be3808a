import { AppError, type AppContext } from '@gatehouse/core';
import { DPoPError, presentedToken, tokenChallenge, type PresentedToken } from '@gatehouse/core/http';
import type { Context, Middleware } from 'koa';
import { InvalidTokenError } from '../../auth/access-token.js';
import { externalCallerVerifier, type ExternalCaller } from './caller.js';
import type { AdminContext } from '../../admin-context.js';

/** What the authentication left for the routes: the caller, and the refusal its call gets once it is logged. */
interface ExternalState {
  caller: ExternalCaller;
  /** A valid token whose application may not use the API (stopped, the product's own, an owner who no longer administers it). */
  refusal?: AppError;
}

/**
 * Authenticates every call of the external API (RFC 6750, RFC 9449): a missing, unknown,
 * malformed, expired or revoked token, one issued for another audience or to a user rather than to
 * the client itself, or one presented otherwise than its binding requires (a DPoP-bound token
 * without a valid proof for this call, a token bound to nothing, a personal access token among
 * them, under the DPoP scheme), is a 401 with a `WWW-Authenticate` challenge, before any route
 * runs and without a log row (there is no caller to name). A valid token refused for what it is
 * (its application may not use the API) reaches its route, which logs the call and answers the
 * refusal.
 */
export function koaExternalAuth(context: AdminContext): Middleware {
  const verifier = externalCallerVerifier(context);
  return async function externalAuth(ctx, next) {
    const presented = presentedToken(ctx.get('authorization'));
    if (!presented) refuse(ctx, undefined);
    let verified: ExternalState;
    try {
      const { jkt, ...caller } = await verifier.verify(presented.token);
      await context.dpop.check(context.dpop.requestOf(ctx.req, undefined, ctx.originalUrl), presented, jkt);
      verified = caller;
    } catch (error) {
      if (error instanceof DPoPError) {
        ctx.state.log?.debug({ reason: error.reason, requestId: ctx.state.requestId }, 'external API DPoP proof refused');
        // The token is bound, or came as if it were: the challenge is DPoP's (RFC 9449 §7.1).
        refuse(ctx, { ...presented, scheme: 'DPoP' }, error.error);
      }
      if (!(error instanceof InvalidTokenError)) throw error;
      ctx.state.log?.debug({ reason: error.reason, requestId: ctx.state.requestId }, 'external API token refused');
      refuse(ctx, presented, 'invalid_token');
    }
    ctx.state.external = verified;
    await next();
  };
}

/**
 * Answers 401 with the challenge of the scheme the request used. The error handler keeps headers
 * already set, so the challenge survives the thrown error.
 */
function refuse(ctx: Context, presented: PresentedToken | undefined, error?: 'invalid_token' | 'invalid_dpop_proof'): never {
  ctx.set('WWW-Authenticate', tokenChallenge(presented?.scheme, error));
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
