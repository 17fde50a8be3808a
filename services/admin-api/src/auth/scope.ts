import { AppError, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { callerOf, type Caller } from './koa-admin-auth.js';

/** Roles that see and act on every area. */
const EVERY_AREA_ROLES = ['Administrator', 'God', 'TenantAdministrator', 'Manager'];

/** What part of the directory a caller may see and change. */
export interface CallerScope {
  /** The areas whose users and groups the caller sees; null means every area. */
  areaIds: string[] | null;
  /** Administrator or God: revoking inherited access, the Global tenant, any group's members. */
  isAdministrator: boolean;
  /** God: the Users group. */
  isGod: boolean;
}

/**
 * The caller's scope. An AreaAdministrator's areas are the areas of the tenants in which they hold
 * AreaAdministrator (directly, through a group or inherited); holding it in the Global tenant
 * means every area. Worked out once per request.
 */
export async function callerScope(context: AppContext, ctx: Context): Promise<CallerScope> {
  if (ctx.state.scope) return ctx.state.scope as CallerScope;
  const scope = await scopeOf(context, callerOf(ctx));
  ctx.state.scope = scope;
  return scope;
}

export async function scopeOf(context: AppContext, caller: Caller): Promise<CallerScope> {
  const isGod = caller.roles.includes('God');
  const isAdministrator = isGod || caller.roles.includes('Administrator');
  if (caller.roles.some((role) => EVERY_AREA_ROLES.includes(role))) return { areaIds: null, isAdministrator, isGod };
  const held = (await resolveEffectiveRoles(context.dataSource, caller.userId, { applicationId: IDENTITY_APPLICATION_ID })).filter(
    (role) => role.roleName === 'AreaAdministrator',
  );
  if (held.some((role) => role.tenantId === GLOBAL_TENANT_ID)) return { areaIds: null, isAdministrator, isGod };
  const tenantIds = [...new Set(held.map((role) => role.tenantId))];
  const rows: Array<{ area_id: string }> = tenantIds.length
    ? await context.dataSource.query('SELECT DISTINCT area_id FROM tenants WHERE id = ANY($1::uuid[]) AND area_id IS NOT NULL', [tenantIds])
    : [];
  return { areaIds: rows.map((row) => row.area_id), isAdministrator, isGod };
}

/** Whether the scope covers an area (a record without an area is for every-area callers only). */
export function inScope(scope: CallerScope, areaId: string | null | undefined): boolean {
  return scope.areaIds === null || (!!areaId && scope.areaIds.includes(areaId));
}

/**
 * Refuses a record outside the caller's areas as not found (404), so an area administrator learns
 * nothing about other areas' users and groups, not even that they exist.
 */
export function assertInScope(scope: CallerScope, areaId: string | null | undefined): void {
  if (!inScope(scope, areaId)) throw new AppError('errors.not_found', 404);
}
