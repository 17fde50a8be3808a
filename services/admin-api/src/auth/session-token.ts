import { IDENTITY_APPLICATION_ID, resolveEffectiveRoles, sqlClient, type AppContext } from '@gatehouse/core';
import { InvalidTokenError, actingOf } from './access-token.js';
import type { BearerVerifier } from './koa-admin-auth.js';

const OPAQUE = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * The portal's access tokens: opaque values the provider keeps in the shared database. A signed-in
 * user presents one for the few admin-API calls every user may make (the home launcher); it never
 * carries the `admin` scope, so administration endpoints stay closed to it. Only the product's own
 * clients' tokens count (the portal's and the admin console's): a token the provider issued to any
 * other application is that application's, not a key to the user's account here. A token bound to
 * a key (DPoP) names it, for the proof the request must carry.
 */
export function sessionTokenBearer(context: AppContext): BearerVerifier {
  const sql = sqlClient(context.dataSource, { prepare: !context.pglite });
  const ownClients = new Set([context.config.oidc.portalClientId, context.config.oidc.adminClientId]);
  return {
    async verify(token) {
      if (!OPAQUE.test(token)) return null;
      const { rows } = await sql.query<{ payload: { accountId?: string; clientId?: string; scope?: string; jti?: string; jkt?: string; 'x5t#S256'?: string; extra?: { act?: unknown } } }>(
        `SELECT payload FROM oidc_model_instances
          WHERE model = 'AccessToken' AND id = $1 AND (expires_at IS NULL OR expires_at > now())`,
        [token],
        'admin_session_token',
      );
      const payload = rows[0]?.payload;
      if (!payload?.accountId) return null;
      if (!payload.clientId || !ownClients.has(payload.clientId)) throw new InvalidTokenError('claims');
      // Bound to a certificate: a binding this API cannot check, so no token here.
      if (payload['x5t#S256'] !== undefined) throw new InvalidTokenError('claims');
      // A token issued while a God user is signed in as the account carries the actor in its extra claims.
      const acting = actingOf(payload.extra ?? {});
      const roles = await resolveEffectiveRoles(context.dataSource, payload.accountId, { applicationId: IDENTITY_APPLICATION_ID });
      return {
        kind: 'session_token',
        userId: payload.accountId,
        roles: [...new Set(roles.map((r) => r.roleName))],
        scopes: (payload.scope ?? '').split(' ').filter(Boolean),
        tokenId: payload.jti ?? null,
        ...acting,
        // The key a DPoP-bound token is bound to: the request must prove it holds it.
        ...(payload.jkt ? { jkt: payload.jkt } : {}),
      };
    },
  };
}
