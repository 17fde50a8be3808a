import { AppError, type AppContext } from '@gatehouse/core';
import type { Context, Next } from 'koa';
import type { ProviderHost } from '../../oidc/provider-host.js';

/**
 * Bearer authentication for the self-service API: an access token this provider issued to the
 * portal (or to one of `clients`), looked up through the provider so that revocation and expiry
 * apply, puts the signed-in user on `ctx.state.accountId`. A token issued to any other application
 * is refused: relying applications act for the user only within their own API, never on the
 * account itself. A token issued while a God user is signed in as the account puts that God user
 * on `ctx.state.actorId`.
 */
export function koaAccountAuth(context: AppContext, host: ProviderHost, clients: readonly string[] = [context.config.oidc.portalClientId]) {
  return async function accountAuth(ctx: Context, next: Next) {
    const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
    const token = match ? await host.current.AccessToken.find(match[1]!) : undefined;
    if (!token || token.isExpired || !token.accountId || !clients.includes(String(token.clientId))) {
      ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
      throw new AppError('errors.unauthorized', 401);
    }
    ctx.state.accountId = token.accountId;
    ctx.state.sessionUid = token.sessionUid;
    // Issued while a God user is signed in as the account (Identify As): who acts.
    ctx.state.actorId = (token.extra as { act?: { sub?: unknown } } | undefined)?.act?.sub;
    await next();
  };
}

/** When the token's session signed in (epoch seconds), or undefined when the session is gone. */
export async function sessionAuthTime(host: ProviderHost, sessionUid: string | undefined): Promise<number | undefined> {
  if (!sessionUid) return undefined;
  const session = await host.current.Session.findByUid(sessionUid);
  return session?.authTime() as number | undefined;
}
