import { IDENTITY_APPLICATION_ID, resolveEffectiveRoles, sqlClient, type AppContext } from '@gatehouse/core';
import type { BearerVerifier } from './koa-admin-auth.js';

const OPAQUE = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * The portal's access tokens: opaque values the provider keeps in the shared database. A signed-in
 * user presents one for the few admin-API calls every user may make (the home launcher); it never
 * carries the `admin` scope, so administration endpoints stay closed to it.
 */
export function sessionTokenBearer(context: AppContext): BearerVerifier {
  const sql = sqlClient(context.dataSource, { prepare: !context.pglite });
  return {
    async verify(token) {
      if (!OPAQUE.test(token)) return null;
      const { rows } = await sql.query<{ payload: { accountId?: string; scope?: string; jti?: string } }>(
        `SELECT payload FROM oidc_model_instances
          WHERE model = 'AccessToken' AND id = $1 AND (expires_at IS NULL OR expires_at > now())`,
        [token],
        'admin_session_token',
      );
      const payload = rows[0]?.payload;
      if (!payload?.accountId) return null;
      const roles = await resolveEffectiveRoles(context.dataSource, payload.accountId, { applicationId: IDENTITY_APPLICATION_ID });
      return {
        kind: 'session_token',
        userId: payload.accountId,
        roles: [...new Set(roles.map((r) => r.roleName))],
        scopes: (payload.scope ?? '').split(' ').filter(Boolean),
        tokenId: payload.jti ?? null,
      };
    },
  };
}
