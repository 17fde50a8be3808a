import type { Area, Group, User } from '@gatehouse/core';
import { buildApplication, buildGroup } from '@gatehouse/core/testing';
import { buildAdminWorld, type AdminWorld, type Application, type SystemLogRow } from '../../testing/admin-world.js';

export { GLOBAL_TENANT_ID } from '@gatehouse/core';
export { bearer, call, userIn, type Persona } from '../../testing/admin-world.js';

/** The admin world (src/testing/admin-world.ts) and an ordinary application with Reader and Writer roles. */
export interface GroupsWorld extends AdminWorld {
  app: Application;
}

/** Builds the world on a database of its own. */
export async function buildGroupsWorld(): Promise<GroupsWorld> {
  const world = await buildAdminWorld();
  const app = await buildApplication(world.context.dataSource, { roles: ['Reader', 'Writer'] });
  return { ...world, app };
}

export async function addMember(w: AdminWorld, group: Group, user: User, permission: 'Reader' | 'Owner' = 'Reader'): Promise<void> {
  await w.context.dataSource.query(`INSERT INTO group_members (group_id, user_id, permission) VALUES ($1, $2, $3)`, [group.id, user.id, permission]);
}

export function groupIn(w: AdminWorld, area: Area, overrides: Partial<Group> = {}): Promise<Group> {
  return buildGroup(w.context.dataSource, { areaId: area.id, ...overrides });
}

/** The system log rows about one group (its own changes, and the changes of its roles), oldest first. */
export function logsOf(w: AdminWorld, groupId: string): Promise<SystemLogRow[]> {
  return w.context.dataSource.query(
    `SELECT user_id, user_name, tenant_id, tenant_name, operation, metadata FROM system_logs
      WHERE metadata->>'groupId' = $1 OR metadata->>'targetGroupId' = $1 ORDER BY id`,
    [groupId],
  );
}

/** The group's members and permissions, by user id. */
export async function membersOf(w: AdminWorld, groupId: string): Promise<Record<string, string>> {
  const rows: Array<{ user_id: string; permission: string }> = await w.context.dataSource.query(
    `SELECT user_id, permission FROM group_members WHERE group_id = $1`,
    [groupId],
  );
  return Object.fromEntries(rows.map((r) => [r.user_id, r.permission]));
}

/** Collects the roles.changed announcements made while `work` runs. */
export async function announcedDuring(w: AdminWorld, work: () => Promise<unknown>): Promise<Array<string | undefined>> {
  const heard: Array<string | undefined> = [];
  const stop = w.context.broadcast.on('roles.changed', ({ userId }) => heard.push(userId));
  try {
    await work();
  } finally {
    stop();
  }
  return heard;
}
