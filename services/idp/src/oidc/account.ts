import { resolveEffectiveRoles, type AppContext } from '@gatehouse/core';
import type { Account, KoaContextWithOIDC } from 'oidc-provider';
import type { ClientRegistry } from './clients.js';

interface AccountRow {
  id: string;
  user_name: string;
  email: string;
  email_verified: boolean;
  first_name: string | null;
  last_name: string | null;
  language: string;
  internal_category: string | null;
  area_name: string | null;
  groups: string[];
}

const ACCOUNT_SQL = `
  SELECT u.id, u.user_name, u.email, u.email_verified, u.first_name, u.last_name, u.language,
         u.internal_category, a.name AS area_name,
         COALESCE((SELECT array_agg(g.name ORDER BY g.name) FROM group_members gm JOIN groups g ON g.id = gm.group_id
                    WHERE gm.user_id = u.id), '{}') AS groups
    FROM users u LEFT JOIN areas a ON a.id = u.area_id
   WHERE u.id = $1 AND NOT u.draft AND NOT u.locked`;

/** Claims each scope releases. */
export const CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'given_name', 'family_name', 'locale', 'area', 'internal_category'],
  email: ['email', 'email_verified'],
  roles: ['roles', 'groups'],
};

/**
 * The provider's view of a user. Draft and permanently locked users are not found, so their
 * refresh tokens stop working. `roles` are the user's effective roles in the requesting
 * application (every tenant), computed when the claims are asked for.
 */
export function accountFinder(context: AppContext, registry: ClientRegistry) {
  return async function findAccount(ctx: KoaContextWithOIDC, sub: string): Promise<Account | undefined> {
    const [row]: AccountRow[] = await context.dataSource.query(ACCOUNT_SQL, [sub]).catch(() => []);
    if (!row) return undefined;
    return {
      accountId: row.id,
      async claims() {
        const clientId = ctx.oidc?.client?.clientId;
        const app = clientId ? await registry.find(clientId) : undefined;
        const roles = app ? await applicationRoleNames(context, row.id, app.id) : [];
        const name = [row.first_name, row.last_name].filter(Boolean).join(' ') || row.user_name;
        return {
          sub: row.id,
          name,
          given_name: row.first_name ?? undefined,
          family_name: row.last_name ?? undefined,
          locale: row.language,
          email: row.email,
          email_verified: row.email_verified,
          area: row.area_name ?? undefined,
          internal_category: row.internal_category ?? undefined,
          roles,
          groups: row.groups,
        };
      },
    };
  };
}

/** Distinct names of the user's effective roles in one application, across tenants. */
export async function applicationRoleNames(context: AppContext, userId: string, applicationId: string): Promise<string[]> {
  const roles = await resolveEffectiveRoles(context.dataSource, userId, { applicationId });
  return [...new Set(roles.map((r) => r.roleName))].sort();
}
