import { AppError, withActor } from '@gatehouse/core';
import { DPoPError, presentedToken, tokenChallenge, type DPoPVerifier, type PresentedToken, type TokenErrorCode } from '@gatehouse/core/http';
import type { Context, Middleware } from 'koa';
import { InvalidTokenError, type AccessTokenVerifier, type Acting } from './access-token.js';

/** Who is calling the admin API, whatever kind of bearer token they came with. */
export interface Caller {
  /**
   * Which verifier accepted the token: the admin console's JWT, a personal access token, or a
   * signed-in user's portal token (opaque).
   */
  kind: 'access_token' | 'personal_access_token' | 'session_token';
  userId: string;
  roles: string[];
  scopes: string[];
  tokenId: string | null;
  /**
   * The God user acting on behalf of `userId` when the token was issued while signed in as them
   * (its `act.sub`); absent for the user's own tokens and for personal access tokens.
   */
  actorId?: string;
  /** The impersonation such a token was issued in (its `act.impersonation_id`), when it names one. */
  impersonationId?: string;
  /** The thumbprint of the key the token is bound to (DPoP); absent for a token bound to none, a personal access token among them. */
  jkt?: string;
}

/**
 * One kind of bearer token. `verify` answers null when the token is not of its kind (the next
 * verifier is tried), the caller when it is valid, and throws InvalidTokenError when it is of its
 * kind but invalid. Any other error is a failure of ours (a 500), never a reason to sign the user out.
 */
export interface BearerVerifier {
  verify(token: string): Promise<Caller | null>;
}

/** The provider's JWT access tokens for the admin API audience. */
export function accessTokenBearer(verifier: AccessTokenVerifier): BearerVerifier {
  return {
    async verify(token) {
      if (!verifier.recognizes(token)) return null;
      return { kind: 'access_token', ...(await verifier.verify(token)) };
    },
  };
}

/** Whether a token's account may still use it (see AccountStates). */
export interface AccountStateCheck {
  isActive(userId: string): Promise<boolean>;
  /** Whether the impersonation a token was issued in (Identify As) is current: that actor still signed in as its user. */
  isActing(acting: Acting, userId: string): Promise<boolean>;
}

/**
 * Authenticates every request with `Authorization: Bearer …` or `Authorization: DPoP …`: the
 * verifiers are tried in order and the first that knows the token decides, then the token must
 * come as its binding requires (a DPoP-bound token under the DPoP scheme with a valid proof for
 * this request, any other under the Bearer scheme). The caller goes to `ctx.state.caller`; a
 * missing, unknown, invalid or expired token, or one presented otherwise than its binding
 * requires, is a 401 with a `WWW-Authenticate` challenge in the scheme of the request (RFC 6750,
 * RFC 9449), and so is a valid token whose account has been locked, made a draft or deleted since
 * it was issued, or that was issued while a God user was signed in as its user in an impersonation
 * that is no longer current.
 */
export function koaAdminAuth(verifiers: readonly BearerVerifier[], accounts: AccountStateCheck, proofs: DPoPVerifier): Middleware {
  return async function adminAuth(ctx, next) {
    const presented = presentedToken(ctx.get('authorization'));
    // RFC 6750 §3.1: a request without credentials gets a bare challenge, no error code.
    if (!presented) refuse(ctx, undefined);
    let caller: Caller | null = null;
    try {
      for (const verifier of verifiers) {
        caller = await verifier.verify(presented.token);
        if (caller) break;
      }
      if (caller) await proofs.check(proofs.requestOf(ctx.req, undefined, ctx.originalUrl), presented, caller.jkt);
    } catch (error) {
      if (error instanceof DPoPError) {
        ctx.state.log?.debug({ reason: error.reason, requestId: ctx.state.requestId }, 'DPoP proof refused');
        // The token is bound, or came as if it were: the challenge is DPoP's (RFC 9449 §7.1).
        refuse(ctx, { ...presented, scheme: 'DPoP' }, error.error);
      }
      if (!(error instanceof InvalidTokenError)) throw error;
      ctx.state.log?.debug({ reason: error.reason, requestId: ctx.state.requestId }, 'bearer token refused');
      if (error.reason === 'insufficient_scope') {
        ctx.set('WWW-Authenticate', tokenChallenge(presented.scheme, 'insufficient_scope'));
        throw new AppError('errors.forbidden', 403);
      }
      refuse(ctx, presented, 'invalid_token');
    }
    if (!caller) refuse(ctx, presented, 'invalid_token');
    if (!(await accounts.isActive(caller.userId))) {
      ctx.state.log?.debug({ reason: 'account', requestId: ctx.state.requestId }, 'bearer token refused');
      refuse(ctx, presented, 'invalid_token');
    }
    // A token issued while signed in as the user ends with that impersonation, not at its own expiry.
    const { actorId, impersonationId } = caller;
    if (actorId && !(await accounts.isActing({ actorId, impersonationId }, caller.userId))) {
      ctx.state.log?.debug({ reason: 'impersonation', requestId: ctx.state.requestId }, 'bearer token refused');
      refuse(ctx, presented, 'invalid_token');
    }
    ctx.state.caller = caller;
    // Every log row the request writes names the actor, whichever feature writes it.
    await withActor(caller.actorId, next);
  };
}

/**
 * Answers 401 with the challenge of the scheme the request used. The error handler keeps headers
 * already set, so the challenge survives the thrown error.
 */
function refuse(ctx: Context, presented: PresentedToken | undefined, error?: TokenErrorCode): never {
  ctx.set('WWW-Authenticate', tokenChallenge(presented?.scheme, error));
  throw new AppError('errors.unauthorized', 401);
}

/** The authenticated caller; a route reached without koaAdminAuth in front fails closed with a 401. */
export function callerOf(ctx: Context): Caller {
  const caller = ctx.state.caller as Caller | undefined;
  if (!caller) throw new AppError('errors.unauthorized', 401);
  return caller;
}
