import { randomBytes } from 'node:crypto';
import type { Area, BroadcastEvents, Tenant, User } from '@gatehouse/core';
import { buildApplication, buildTenant } from '@gatehouse/core/testing';
import { buildAdminWorld, logsWhere, userIn, type AdminWorld, type Application, type SystemLogRow } from '../../testing/admin-world.js';

export { call, userIn, type Persona } from '../../testing/admin-world.js';

/**
 * The admin world (src/testing/admin-world.ts) and what the users tests add to it: a child tenant
 * of tenant A, and the application "crm" with Reader, Writer and Auditor (Auditor flagged
 * byHierarchy).
 */
export interface UsersWorld extends AdminWorld {
  childA: Tenant;
  crm: Application;
}

/** Builds the world on a database of its own. */
export async function buildUsersWorld(): Promise<UsersWorld> {
  const world = await buildAdminWorld();
  const db = world.context.dataSource;
  const childA = await buildTenant(db, { areaId: world.areaA.id, parentId: world.tenantA.id });
  const crm = await buildApplication(db, { id: `crm-${randomBytes(3).toString('hex')}`, name: 'crm', displayName: 'CRM', roles: ['Reader', 'Writer', 'Auditor'] });
  await db.query(`UPDATE roles SET by_hierarchy = true WHERE id = $1`, [crm.roleByName.Auditor!.id]);
  crm.roleByName.Auditor!.byHierarchy = true;
  return { ...world, childA, crm };
}

/**
 * Users named `${prefix}-0@example.com`, `${prefix}-1@example.com`… with the given fields, last
 * changed in the order given, a minute apart and the first the oldest, so that a list's default
 * order (newest change first) is known.
 */
export async function usersChangedInOrder(w: AdminWorld, prefix: string, specs: ReadonlyArray<Partial<User> & { area: Area }>): Promise<User[]> {
  const users: User[] = [];
  for (const [i, { area, ...fields }] of specs.entries()) {
    const user = await userIn(w, area, { userName: `${prefix}-${i}@example.com`, ...fields });
    await w.context.dataSource.query(`UPDATE users SET modified_on = now() - make_interval(mins => $2) WHERE id = $1`, [user.id, specs.length - i]);
    users.push(user);
  }
  return users;
}

/** The system log rows about one target user, oldest first. */
export function logsAbout(w: AdminWorld, targetUserId: string): Promise<SystemLogRow[]> {
  return logsWhere(w, 'targetUserId', targetUserId);
}

/** A provider session and refresh token of the user, as the provider stores them. */
export async function insertProviderSessions(w: AdminWorld, userId: string): Promise<void> {
  for (const model of ['Session', 'RefreshToken']) {
    await w.context.dataSource.query(`INSERT INTO oidc_model_instances (model, id, payload) VALUES ($1, $2, $3)`, [
      model,
      randomBytes(16).toString('hex'),
      { accountId: userId, kind: model },
    ]);
  }
}

export async function providerSessionCount(w: AdminWorld, userId: string): Promise<number> {
  const [row] = await w.context.dataSource.query(`SELECT count(*)::int AS n FROM oidc_model_instances WHERE payload->>'accountId' = $1`, [userId]);
  return row.n;
}

/** Records the broadcasts of one event name until `stop`. */
export function listen<N extends keyof BroadcastEvents>(w: AdminWorld, name: N): { events: Array<BroadcastEvents[N]>; stop: () => void } {
  const events: Array<BroadcastEvents[N]> = [];
  const stop = w.context.broadcast.on(name, (payload) => events.push(payload));
  return { events, stop };
}
