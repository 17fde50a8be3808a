import { AppError, GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, resolveEffectiveRoles, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { callerOf, type Caller } from './koa-admin-auth.js';
import { rolesGranting, type EndpointName } from './permissions.js';

/** Roles that reach every area with whatever endpoint they open. */
const EVERY_AREA_ROLES = ['Administrator', 'God', 'TenantAdministrator', 'Manager'];
/** The roles that change users and groups: what scopes a call that names no endpoint. */
const MANAGING_ROLES = ['Administrator', 'God', 'AreaAdministrator'];

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
 * The caller's scope for the endpoint the request is making (requireRole names it). It comes from
 * the roles that open that endpoint only, never from the caller's other roles: a read-only role
 * (TenantAdministrator) widens what the caller reads, not what they change, and an
 * AreaAdministrator who is also a Manager still changes users and groups of their areas only.
 * Administrator, God, TenantAdministrator and Manager reach every area; an AreaAdministrator's
 * areas are the areas of the tenants in which they hold AreaAdministrator (directly, through a
 * group or inherited), every area when held in the Global tenant. Worked out once per request.
 */
export async function callerScope(context: AppContext, ctx: Context): Promise<CallerScope> {
  const endpoint = ctx.state.endpoint as EndpointName | undefined;
  if (ctx.state.scope && ctx.state.scopeEndpoint === endpoint) return ctx.state.scope as CallerScope;
  const scope = await scopeOf(context, callerOf(ctx), endpoint);
  ctx.state.scope = scope;
  ctx.state.scopeEndpoint = endpoint;
  return scope;
}

/** The scope of `caller` for `endpoint`; without one (or for an endpoint open to everyone), the scope of the managing roles. */
export async function scopeOf(context: AppContext, caller: Caller, endpoint?: EndpointName): Promise<CallerScope> {
  const isGod = caller.roles.includes('God');
  const isAdministrator = isGod || caller.roles.includes('Administrator');
  const granting = endpoint ? rolesGranting(endpoint, caller.roles) : [];
  const reaching = granting.length ? granting : caller.roles.filter((role) => MANAGING_ROLES.includes(role));
  if (reaching.some((role) => EVERY_AREA_ROLES.includes(role))) return { areaIds: null, isAdministrator, isGod };
  if (!reaching.includes('AreaAdministrator')) return { areaIds: [], isAdministrator, isGod };
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
