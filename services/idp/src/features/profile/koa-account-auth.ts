import { AppError, type AppContext } from '@gatehouse/core';
import type { Context, Next } from 'koa';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { actingOf } from '../identify-as/session-impersonations.js';

/**
 * Bearer authentication for the self-service API: an access token this provider issued to the
 * portal (or to one of `clients`), looked up through the provider so that revocation and expiry
 * apply, puts the signed-in user on `ctx.state.accountId`. A token issued to any other application
 * is refused: relying applications act for the user only within their own API, never on the
 * account itself. A token issued while a God user is signed in as the account puts that God user
 * on `ctx.state.actorId`, and works only while the impersonation it was issued in is current.
 */
export function koaAccountAuth(context: AppContext, host: ProviderHost, clients: readonly string[] = [context.config.oidc.portalClientId]) {
  return async function accountAuth(ctx: Context, next: Next) {
    const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
    const token = match ? await host.current.AccessToken.find(match[1]!) : undefined;
    if (!token || token.isExpired || !token.accountId || !clients.includes(String(token.clientId))) refuse(ctx);
    // Issued while a God user is signed in as the account (Identify As): who acts, and in which impersonation.
    const acting = actingOf(token.extra);
    if (acting && !(await host.impersonations.isCurrent(acting, token.accountId))) refuse(ctx);
    ctx.state.accountId = token.accountId;
    ctx.state.sessionUid = token.sessionUid;
    ctx.state.actorId = acting?.actorId;
    await next();
  };
}

function refuse(ctx: Context): never {
  ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
  throw new AppError('errors.unauthorized', 401);
}

/** When the token's session signed in (epoch seconds), or undefined when the session is gone. */
export async function sessionAuthTime(host: ProviderHost, sessionUid: string | undefined): Promise<number | undefined> {
  if (!sessionUid) return undefined;
  const session = await host.current.Session.findByUid(sessionUid);
  return session?.authTime() as number | undefined;
}
