import type { Area, Group, Tenant, User } from '@gatehouse/core';
import { buildArea, buildTenant, grant } from '@gatehouse/core/testing';
import request from 'supertest';
import type { AdminWorld } from '../../testing/admin-world.js';
import { mintAccessToken } from '../../testing/tokens.js';
import { buildGroupsWorld, type GroupsWorld } from '../groups/testing.js';

export { GLOBAL_TENANT_ID, addMember, announcedDuring, bearer, call, groupIn, userIn, type Persona } from '../groups/testing.js';
export { binary, xlsx } from '../../testing/admin-world.js';

/** The groups world (admin world plus an application with Reader and Writer) and a tenant of area A under tenant A. */
export interface IdentitiesWorld extends GroupsWorld {
  childOfA: Tenant;
}

export async function buildIdentitiesWorld(): Promise<IdentitiesWorld> {
  const world = await buildGroupsWorld();
  const childOfA = await buildTenant(world.context.dataSource, { areaId: world.areaA.id, parentId: world.tenantA.id });
  return { ...world, childOfA };
}

/** A new area of its own, so a list can be filtered down to exactly what a test built. */
export function areaOfItsOwn(w: AdminWorld): Promise<Area> {
  return buildArea(w.context.dataSource);
}

/** Gives the user or group roles (by name, of the world's application) in a tenant. */
export function holds(
  w: GroupsWorld,
  who: { user?: User; group?: Group },
  tenant: Tenant | string,
  roles: Array<'Reader' | 'Writer'>,
  inheritable = true,
): Promise<unknown> {
  return grant(w.context.dataSource, { tenant, ...who, roles: roles.map((name) => w.app.roleByName[name]!), inheritable });
}

/** A request with a token carrying exactly these roles (none: a signed-in user without any). */
export async function callWithRoles(w: AdminWorld, roles: string[], path: string, user: User = w.callers.admin) {
  const token = await mintAccessToken(w.context, w.key, { sub: user.id, roles });
  return request(w.server).get(`/api/v1/admin${path}`).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');
}

/** The user's own roles by tenant: `tenantId → 'Application:Role'` sorted, with the membership's inheritable flag. */
export async function ownRolesOf(w: AdminWorld, userId: string): Promise<Record<string, { inheritable: boolean; roles: string[] }>> {
  return rolesOf(w, 'user_id', userId);
}

/** The group's roles by tenant, as ownRolesOf. */
export async function groupRolesOf(w: AdminWorld, groupId: string): Promise<Record<string, { inheritable: boolean; roles: string[] }>> {
  return rolesOf(w, 'group_id', groupId);
}

async function rolesOf(w: AdminWorld, column: 'user_id' | 'group_id', id: string): Promise<Record<string, { inheritable: boolean; roles: string[] }>> {
  const rows: Array<{ tenant_id: string; is_inheritable: boolean; role: string | null }> = await w.context.dataSource.query(
    `SELECT tm.tenant_id, tm.is_inheritable, app.name || ':' || r.name AS role
       FROM tenant_members tm
       LEFT JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
       LEFT JOIN roles r ON r.id = tmr.role_id
       LEFT JOIN applications app ON app.id = r.application_id
      WHERE tm.${column} = $1`,
    [id],
  );
  const result: Record<string, { inheritable: boolean; roles: string[] }> = {};
  for (const row of rows) {
    const entry = (result[row.tenant_id] ??= { inheritable: row.is_inheritable, roles: [] });
    if (row.role) entry.roles.push(row.role);
  }
  for (const entry of Object.values(result)) entry.roles.sort();
  return result;
}

/** The system log rows of one operation written by one caller, oldest first. */
export function systemLogs(w: AdminWorld, operation: string, userId: string): Promise<Array<{ tenant_id: string | null; tenant_name: string | null; metadata: Record<string, unknown> }>> {
  return w.context.dataSource.query(`SELECT tenant_id, tenant_name, metadata FROM system_logs WHERE operation = $1 AND user_id = $2 ORDER BY id`, [operation, userId]);
}
