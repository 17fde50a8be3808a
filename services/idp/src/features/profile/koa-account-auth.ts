import { AppError } from '@gatehouse/core';
import type { Context, Next } from 'koa';
import type { ProviderHost } from '../../oidc/provider-host.js';

/**
 * Bearer authentication for the self-service API: an access token this provider issued (looked up
 * through the provider, so revocation and expiry apply) puts the signed-in user on
 * `ctx.state.accountId`.
 */
export function koaAccountAuth(host: ProviderHost) {
  return async function accountAuth(ctx: Context, next: Next) {
    const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
    const token = match ? await host.current.AccessToken.find(match[1]!) : undefined;
    if (!token || token.isExpired || !token.accountId) {
      ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
      throw new AppError('errors.unauthorized', 401);
    }
    ctx.state.accountId = token.accountId;
    await next();
  };
}
