import { AppError, type AppContext } from '@gatehouse/core';
import { DPoPError, presentedToken, tokenChallenge, type PresentedToken } from '@gatehouse/core/http';
import type { Context, Next } from 'koa';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { actingOf } from '../identify-as/session-impersonations.js';

/**
 * Token authentication for the self-service API: an access token this provider issued to the
 * portal (or to one of `clients`), looked up through the provider so that revocation and expiry
 * apply, puts the signed-in user on `ctx.state.accountId`. A token issued to any other application
 * is refused: relying applications act for the user only within their own API, never on the
 * account itself. A token bound to a key (DPoP) comes under the DPoP scheme with a valid proof for
 * this request, any other under the Bearer scheme. A token issued while a God user is signed in as
 * the account puts that God user on `ctx.state.actorId`, and works only while the impersonation it
 * was issued in is current.
 */
export function koaAccountAuth(context: AppContext, host: ProviderHost, clients: readonly string[] = [context.config.oidc.portalClientId]) {
  return async function accountAuth(ctx: Context, next: Next) {
    const presented = presentedToken(ctx.get('authorization'));
    if (!presented) refuse(ctx, undefined);
    const token = await host.current.AccessToken.find(presented.token);
    if (!token || token.isExpired || !token.accountId || !clients.includes(String(token.clientId))) refuse(ctx, presented);
    // Bound to a certificate: a binding this API cannot check, so no token here.
    if (token['x5t#S256'] !== undefined) refuse(ctx, presented);
    await proveHolder(context, ctx, presented, token.jkt);
    // Issued while a God user is signed in as the account (Identify As): who acts, and in which impersonation.
    const acting = actingOf(token.extra);
    if (acting && !(await host.impersonations.isCurrent(acting, token.accountId))) refuse(ctx, presented);
    ctx.state.accountId = token.accountId;
    ctx.state.sessionUid = token.sessionUid;
    ctx.state.actorId = acting?.actorId;
    await next();
  };
}

/**
 * Refuses (401, with a DPoP challenge) a token presented otherwise than its binding requires: `jkt`
 * is the key a DPoP-bound token is bound to, undefined for a token bound to none.
 */
export async function proveHolder(context: AppContext, ctx: Context, presented: PresentedToken, jkt: string | undefined): Promise<void> {
  try {
    await context.dpop.check(context.dpop.requestOf(ctx.req, undefined, ctx.originalUrl), presented, jkt);
  } catch (error) {
    if (!(error instanceof DPoPError)) throw error;
    ctx.state.log?.debug({ reason: error.reason, requestId: ctx.state.requestId }, 'DPoP proof refused');
    // The token is bound, or came as if it were: the challenge is DPoP's (RFC 9449 §7.1).
    refuse(ctx, { ...presented, scheme: 'DPoP' }, error.error);
  }
}

/** Answers 401 with the challenge of the scheme the request used (Bearer without credentials). */
export function refuse(ctx: Context, presented: PresentedToken | undefined, error: 'invalid_token' | 'invalid_dpop_proof' = 'invalid_token'): never {
  ctx.set('WWW-Authenticate', tokenChallenge(presented?.scheme ?? 'Bearer', error));
  throw new AppError('errors.unauthorized', 401);
}

/** When the token's session signed in (epoch seconds), or undefined when the session is gone. */
export async function sessionAuthTime(host: ProviderHost, sessionUid: string | undefined): Promise<number | undefined> {
  if (!sessionUid) return undefined;
  const session = await host.current.Session.findByUid(sessionUid);
  return session?.authTime() as number | undefined;
}
