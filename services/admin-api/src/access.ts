// The admin API's way into tenant access (@gatehouse/core/access): who the caller is for the rules,
// and the one TenantAccess every feature gives and takes roles through.
import { TenantAccess, findUserName, userAuthority, type AccessActor, type AccessPath, type Authority } from '@gatehouse/core/access';
import type { Caller } from './auth/koa-admin-auth.js';
import type { CallerScope } from './auth/scope.js';
import type { Queryable } from './db.js';
import { notifyRolesGranted } from './features/notifications/permission-assigned.js';
import type { AdminContext } from './admin-context.js';

/** Tenant access for this context: a user given roles is told (PermissionAssigned) once the change commits. */
export function tenantAccess(context: AdminContext): TenantAccess {
  return new TenantAccess(context, {
    rolesGranted: (notice) => notifyRolesGranted(context, notice),
  });
}

/**
 * The caller as the rules see them, reaching the areas of the endpoint's scope: the Identity roles
 * they hold now (a role taken away since the token was issued counts no more), of those their
 * token carries (a token issued with fewer roles acts with those only).
 */
export async function callerAuthority(db: Queryable, caller: Caller, scope: Pick<CallerScope, 'areaIds'>): Promise<Authority> {
  const authority = await userAuthority(db, caller.userId, scope.areaIds);
  return { ...authority, roles: authority.roles.filter((role) => caller.roles.includes(role.roleName)) };
}

/** The caller as the actor of a change of access on `path`. */
export async function callerActor(db: Queryable, caller: Caller, scope: Pick<CallerScope, 'areaIds'>, path: AccessPath, origin?: Record<string, unknown>): Promise<AccessActor> {
  const [authority, userName] = await Promise.all([callerAuthority(db, caller, scope), findUserName(db, caller.userId)]);
  return { authority, path, log: { userId: caller.userId, userName }, origin };
}
