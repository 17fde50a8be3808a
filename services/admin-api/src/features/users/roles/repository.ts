import type { Queryable } from '../../../db.js';

// The user's memberships: their own (direct) and those of every group they belong to.
const MEMBERSHIPS = `
  memberships AS (
    SELECT tm.id, tm.tenant_id, tm.is_inheritable, true AS direct
      FROM tenant_members tm
     WHERE tm.user_id = $1
    UNION ALL
    SELECT tm.id, tm.tenant_id, tm.is_inheritable, false
      FROM tenant_members tm
      JOIN group_members gm ON gm.group_id = tm.group_id
     WHERE gm.user_id = $1
  )`;

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

export interface RoleGrantRow {
  tenant_id: string;
  tenant_name: string;
  application_id: string;
  application_name: string;
  role_id: string;
  role_name: string;
  description: string | null;
  /** Granted to the user in their own name in this tenant: the badge can be removed. */
  own: boolean;
  /** Also (or only) held through a group in this tenant, or inherited from an ancestor tenant. */
  by_hierarchy: boolean;
}

/**
 * The user's role badges: in every tenant where the user is a member (directly or through a
 * group), the roles granted there and those inherited from its ancestors through inheritable
 * memberships. Unlike core's resolveEffectiveRoles, a group's grant counts as by hierarchy, not
 * own: only the user's own grants can be removed from the user's page. Descendants that merely
 * inherit are not listed (a grant high in the tree would otherwise repeat in every tenant below
 * it); the Global tenant's roles appear once, under the Global tenant.
 */
export async function findRoleGrants(db: Queryable, userId: string, applicationId: string | null = null): Promise<RoleGrantRow[]> {
  return db.query<RoleGrantRow[]>(
    `WITH RECURSIVE
     ${MEMBERSHIPS},
     ancestors(tenant_id, ancestor_id) AS (
       SELECT t.id, t.parent_id FROM tenants t
        WHERE t.id IN (SELECT tenant_id FROM memberships) AND t.parent_id IS NOT NULL
       UNION
       SELECT x.tenant_id, t.parent_id FROM ancestors x JOIN tenants t ON t.id = x.ancestor_id
        WHERE t.parent_id IS NOT NULL
     ),
     sources AS (
       SELECT m.tenant_id, tmr.role_id, m.direct AS own, NOT m.direct AS by_hierarchy
         FROM memberships m JOIN tenant_member_roles tmr ON tmr.tenant_member_id = m.id
       UNION ALL
       SELECT x.tenant_id, tmr.role_id, false, true
         FROM ancestors x
         JOIN memberships m ON m.tenant_id = x.ancestor_id AND m.is_inheritable
         JOIN tenant_member_roles tmr ON tmr.tenant_member_id = m.id
     )
     SELECT s.tenant_id, t.title AS tenant_name, r.application_id, a.name AS application_name,
            r.id AS role_id, r.name AS role_name, r.description,
            bool_or(s.own) AS own, bool_or(s.by_hierarchy) AS by_hierarchy
       FROM sources s
       JOIN roles r ON r.id = s.role_id
       JOIN applications a ON a.id = r.application_id
       JOIN tenants t ON t.id = s.tenant_id
      WHERE $2::varchar IS NULL OR r.application_id = $2
      GROUP BY s.tenant_id, t.title, r.application_id, a.name, r.id, r.name, r.description
      ORDER BY t.title, s.tenant_id, r.name, r.id`,
    [userId, applicationId],
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

/** The user's own membership of the tenant, created (inheritable, as the dialogs default) when missing. */
export async function ensureOwnMembership(db: Queryable, tenantId: string, userId: string): Promise<string> {
  await db.query(
    `INSERT INTO tenant_members (tenant_id, identity_type, user_id, is_inheritable) VALUES ($1, 'User', $2, true)
     ON CONFLICT (tenant_id, user_id) DO NOTHING`,
    [tenantId, userId],
  );
  const rows = await db.query<Array<{ id: string }>>(`SELECT id FROM tenant_members WHERE tenant_id = $1 AND user_id = $2`, [tenantId, userId]);
  return rows[0]!.id;
}

/**
 * The user's own membership of the tenant, locked until the transaction ends, created with
 * `isInheritable` when missing; answers it and whether it was created (concurrent callers
 * cannot both create it: the insert yields to the unique index).
 */
export async function lockOwnMembership(
  db: Queryable,
  tenantId: string,
  userId: string,
  isInheritable: boolean,
): Promise<{ id: string; isInheritable: boolean; created: boolean }> {
  const inserted = await db.query<Array<{ id: string; is_inheritable: boolean }>>(
    `INSERT INTO tenant_members (tenant_id, identity_type, user_id, is_inheritable) VALUES ($1, 'User', $2, $3)
     ON CONFLICT (tenant_id, user_id) DO NOTHING
     RETURNING id, is_inheritable`,
    [tenantId, userId, isInheritable],
  );
  const row =
    inserted[0] ??
    (await db.query<Array<{ id: string; is_inheritable: boolean }>>(`SELECT id, is_inheritable FROM tenant_members WHERE tenant_id = $1 AND user_id = $2 FOR UPDATE`, [
      tenantId,
      userId,
    ]))[0]!;
  return { id: row.id, isInheritable: row.is_inheritable, created: inserted.length > 0 };
}

/** Sets whether the membership's roles also apply in the tenants below its tenant. */
export async function setOwnMembershipInheritable(db: Queryable, membershipId: string, isInheritable: boolean): Promise<void> {
  await db.query(`UPDATE tenant_members SET is_inheritable = $2, modified_on = now() WHERE id = $1`, [membershipId, isInheritable]);
}

/** Adds roles to a membership; answers the ids of those it did not already have. */
export async function addMembershipRoles(db: Queryable, memberId: string, roleIds: string[]): Promise<string[]> {
  const rows = await db.query<Array<{ role_id: string }>>(
    `INSERT INTO tenant_member_roles (tenant_member_id, role_id)
     SELECT $1, role_id FROM unnest($2::uuid[]) AS role_id
     ON CONFLICT DO NOTHING
     RETURNING role_id`,
    [memberId, roleIds],
  );
  return rows.map((row) => row.role_id);
}

/** Removes one role from the user's own membership of a tenant; false when they did not hold it there. */
export async function removeOwnRole(db: Queryable, userId: string, tenantId: string, roleId: string): Promise<boolean> {
  const result = await db.query<unknown>(
    `DELETE FROM tenant_member_roles tmr USING tenant_members tm
      WHERE tmr.tenant_member_id = tm.id AND tm.user_id = $1 AND tm.tenant_id = $2 AND tmr.role_id = $3`,
    [userId, tenantId, roleId],
  );
  return affected(result) > 0;
}

/** Removes every role of the application from all the user's own memberships; answers what it removed. */
export async function removeOwnApplicationRoles(
  db: Queryable,
  userId: string,
  applicationId: string,
): Promise<Array<{ tenant_id: string; role_id: string; role_name: string }>> {
  const result = await db.query<unknown>(
    `DELETE FROM tenant_member_roles tmr USING tenant_members tm, roles r
      WHERE tmr.tenant_member_id = tm.id AND tm.user_id = $1 AND r.id = tmr.role_id AND r.application_id = $2
      RETURNING tm.tenant_id, tmr.role_id, r.name AS role_name`,
    [userId, applicationId],
  );
  return returnedRows(result) as Array<{ tenant_id: string; role_id: string; role_name: string }>;
}

// TypeORM answers DELETE and UPDATE on postgres as [rows, affectedCount].
function affected(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

function returnedRows(result: unknown): unknown[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as unknown[]) : [];
}
