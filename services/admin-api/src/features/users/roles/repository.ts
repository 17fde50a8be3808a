import type { Queryable } from '../../../db.js';
import { USER_MEMBERSHIPS as MEMBERSHIPS } from '@gatehouse/core/access';
export { findRoleGrants, type RoleGrantRow } from '@gatehouse/core/access';

export interface MembershipRow {
  tenant_id: string;
  tenant_name: string;
  /** The user is a member in their own name. */
  direct: boolean;
  /** The user is a member through at least one group. */
  via_group: boolean;
  is_inheritable: boolean;
}

/** The tenants the user is a member of, in their own name or through a group. */
export async function findMemberships(db: Queryable, userId: string): Promise<MembershipRow[]> {
  return db.query<MembershipRow[]>(
    `WITH ${MEMBERSHIPS}
     SELECT m.tenant_id, t.title AS tenant_name, bool_or(m.direct) AS direct, bool_or(NOT m.direct) AS via_group,
            -- Their own membership's flag when they have one; otherwise whether any group's flows down.
            coalesce(bool_or(m.is_inheritable) FILTER (WHERE m.direct), bool_or(m.is_inheritable)) AS is_inheritable
       FROM memberships m JOIN tenants t ON t.id = m.tenant_id
      GROUP BY m.tenant_id, t.title`,
    [userId],
  );
}

/**
 * The names of the user's groups whose tenant memberships hold roles of the application: what
 * stays of the user's access when their own grants go (an ancestor's inherited roles included,
 * since they reach the user only through a membership holding them).
 */
export async function findGroupsGranting(db: Queryable, userId: string, applicationId: string): Promise<string[]> {
  return (await findGroupsGrantingByApplication(db, userId, applicationId)).get(applicationId) ?? [];
}

/** The same, for every application (or one): group names by application id. */
export async function findGroupsGrantingByApplication(db: Queryable, userId: string, applicationId: string | null = null): Promise<Map<string, string[]>> {
  const rows = await db.query<Array<{ application_id: string; name: string }>>(
    `SELECT DISTINCT r.application_id, g.name
       FROM group_members gm
       JOIN groups g ON g.id = gm.group_id
       JOIN tenant_members tm ON tm.group_id = g.id
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
       JOIN roles r ON r.id = tmr.role_id
      WHERE gm.user_id = $1 AND ($2::varchar IS NULL OR r.application_id = $2)
      ORDER BY r.application_id, g.name`,
    [userId, applicationId],
  );
  const groups = new Map<string, string[]>();
  for (const row of rows) groups.set(row.application_id, [...(groups.get(row.application_id) ?? []), row.name]);
  return groups;
}

export interface ApplicationRow {
  id: string;
  name: string;
  display_name: string;
}

/** Every application listed to administrators (the product's own clients are not), or one by id; by display name. */
export async function findApplications(db: Queryable, applicationId: string | null = null): Promise<ApplicationRow[]> {
  return db.query<ApplicationRow[]>(
    `SELECT id, name, display_name FROM applications WHERE ($1::varchar IS NULL AND NOT hide_in_user_list) OR id = $1 ORDER BY display_name, id`,
    [applicationId],
  );
}

// TypeORM answers DELETE and UPDATE on postgres as [rows, affectedCount].
function affected(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

function returnedRows(result: unknown): unknown[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as unknown[]) : [];
}
