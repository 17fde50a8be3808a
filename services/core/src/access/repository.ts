// The one place that writes tenant memberships and their role grants, for users and groups, and
// reads the facts the authority rules look at. UPDATE and DELETE … RETURNING are wrapped in a CTE:
// the driver answers a bare one as [rows, count].
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, type IdentityType } from '../domain/constants.js';
import type { Queryable } from '../db/data-source.js';
import { resolveEffectiveRoles } from '../roles/effective-roles.js';
import type { HeldRole, RoleFacts } from './policy.js';
import { sortRoleOrigins, type RoleOrigin } from '@gatehouse/contracts';

/** A role with what the rules and the log need of it. */
export interface AccessRole extends RoleFacts {
  applicationName: string;
  /** The application as users see it. */
  applicationDisplayName: string;
}

const ROLE_COLUMNS = `r.id, r.name, r.application_id AS "applicationId", a.name AS "applicationName", a.display_name AS "applicationDisplayName",
       r.by_hierarchy AS "byHierarchy", r.operation_request_visibility AS "operationRequestVisible", r.service_manager_visibility AS "serviceManagerVisible"`;

/** The roles with these ids (those that exist), by name; `lock` holds them until the transaction ends (a deletion waits). */
export async function findAccessRoles(db: Queryable, ids: readonly string[], lock = false): Promise<AccessRole[]> {
  if (ids.length === 0) return [];
  return db.query<AccessRole[]>(
    `SELECT ${ROLE_COLUMNS} FROM roles r JOIN applications a ON a.id = r.application_id
      WHERE r.id = ANY($1::uuid[]) ORDER BY r.name, r.id${lock ? ' FOR SHARE OF r' : ''}`,
    [ids],
  );
}

/** The Identity application roles a user holds (own, through groups, inherited, Global), with the tenants' areas. */
export async function findUserIdentityRoles(db: Queryable, userId: string): Promise<HeldRole[]> {
  const held = await resolveEffectiveRoles(db as never, userId, { applicationId: IDENTITY_APPLICATION_ID });
  if (held.length === 0) return [];
  const areas = await tenantAreas(db, [...new Set(held.map((role) => role.tenantId))]);
  return held.map((role) => ({ roleName: role.roleName, tenantId: role.tenantId, areaId: areas.get(role.tenantId) ?? null }));
}

/** The Identity application roles granted to a group, where, with the tenants' areas. */
export async function findGroupIdentityRoles(db: Queryable, groupId: string): Promise<HeldRole[]> {
  return db.query<HeldRole[]>(
    `SELECT DISTINCT r.name AS "roleName", tm.tenant_id AS "tenantId", t.area_id AS "areaId"
       FROM tenant_members tm
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
       JOIN roles r ON r.id = tmr.role_id
       JOIN tenants t ON t.id = tm.tenant_id
      WHERE tm.group_id = $1 AND r.application_id = $2`,
    [groupId, IDENTITY_APPLICATION_ID],
  );
}

/** The area of each tenant. */
export async function tenantAreas(db: Queryable, tenantIds: readonly string[]): Promise<Map<string, string | null>> {
  if (tenantIds.length === 0) return new Map();
  const rows = await db.query<Array<{ id: string; area_id: string | null }>>(`SELECT id, area_id FROM tenants WHERE id = ANY($1::uuid[])`, [tenantIds]);
  return new Map(rows.map((row) => [row.id, row.area_id]));
}

/** The user's login name as it is now (how the system log names an actor); null when there is no such user. */
export async function findUserName(db: Queryable, userId: string): Promise<string | null> {
  const rows = await db.query<Array<{ user_name: string }>>(`SELECT user_name FROM users WHERE id = $1`, [userId]);
  return rows[0]?.user_name ?? null;
}

/** The groups a user belongs to. */
export async function findUserGroupIds(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.query<Array<{ group_id: string }>>(`SELECT group_id FROM group_members WHERE user_id = $1`, [userId]);
  return rows.map((row) => row.group_id);
}

/** Whether a group holds any role in any tenant (its members get them). */
export async function groupHoldsRoles(db: Queryable, groupId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(
    `SELECT 1 FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id WHERE tm.group_id = $1 LIMIT 1`,
    [groupId],
  );
  return rows.length > 0;
}

/** The members of a group. */
export async function findGroupMemberIds(db: Queryable, groupId: string): Promise<string[]> {
  const rows = await db.query<Array<{ user_id: string }>>(`SELECT user_id FROM group_members WHERE group_id = $1`, [groupId]);
  return rows.map((row) => row.user_id);
}

/** A user or a group as the rules and the log name them. */
export interface IdentityRecord {
  type: IdentityType;
  id: string;
  /** A user's user name, a group's name. */
  name: string;
  areaId: string | null;
  /** A user's language (for what they are told). */
  language: string | null;
  /** The Users group (named Users, with a Global membership): every user's base roles. */
  isUsersGroup: boolean;
}

/** The user or group (row-locked until the transaction ends unless `lock` is false); undefined when it does not exist. */
export async function lockIdentity(db: Queryable, type: IdentityType, id: string, lock = true): Promise<IdentityRecord | undefined> {
  const rows =
    type === 'User'
      ? await db.query<IdentityRecord[]>(
          `SELECT 'User' AS type, id, user_name AS name, area_id AS "areaId", language, false AS "isUsersGroup" FROM users WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
          [id],
        )
      : await db.query<IdentityRecord[]>(
          `SELECT 'Group' AS type, g.id, g.name, g.area_id AS "areaId", NULL AS language,
                  lower(g.name) = 'users' AND EXISTS (SELECT 1 FROM tenant_members tm WHERE tm.group_id = g.id AND tm.tenant_id = $2) AS "isUsersGroup"
             FROM groups g WHERE g.id = $1${lock ? ' FOR UPDATE OF g' : ''}`,
          [id, GLOBAL_TENANT_ID],
        );
  return rows[0];
}

const identityColumn = (type: IdentityType) => (type === 'User' ? 'user_id' : 'group_id');

export interface MembershipRow {
  id: string;
  isInheritable: boolean;
}

/** The identity's own membership of the tenant, locked until the transaction ends; undefined when it has none. */
export async function lockMembership(db: Queryable, tenantId: string, type: IdentityType, id: string): Promise<MembershipRow | undefined> {
  const rows = await db.query<MembershipRow[]>(
    `SELECT id, is_inheritable AS "isInheritable" FROM tenant_members WHERE tenant_id = $1 AND ${identityColumn(type)} = $2 FOR UPDATE`,
    [tenantId, id],
  );
  return rows[0];
}

/**
 * The identity's own membership of the tenant, locked until the transaction ends, created with
 * `isInheritable` when missing (concurrent callers cannot both create it: the insert yields to the
 * unique index); answers whether it was created.
 */
export async function lockOrCreateMembership(
  db: Queryable,
  tenantId: string,
  type: IdentityType,
  id: string,
  isInheritable: boolean,
): Promise<MembershipRow & { created: boolean }> {
  const inserted = await db.query<MembershipRow[]>(
    `INSERT INTO tenant_members (tenant_id, identity_type, ${identityColumn(type)}, is_inheritable) VALUES ($1, $2, $3, $4)
     ON CONFLICT (tenant_id, ${identityColumn(type)}) DO NOTHING
     RETURNING id, is_inheritable AS "isInheritable"`,
    [tenantId, type, id, isInheritable],
  );
  if (inserted[0]) return { ...inserted[0], created: true };
  return { ...(await lockMembership(db, tenantId, type, id))!, created: false };
}

/** Sets whether the membership's roles also apply in the tenants below its tenant. */
export async function setMembershipInheritable(db: Queryable, membershipId: string, isInheritable: boolean): Promise<void> {
  await db.query(`UPDATE tenant_members SET is_inheritable = $2, modified_on = now() WHERE id = $1`, [membershipId, isInheritable]);
}

/** The ids of the roles a membership holds. */
export async function findMembershipRoleIds(db: Queryable, membershipId: string): Promise<string[]> {
  const rows = await db.query<Array<{ role_id: string }>>(`SELECT role_id FROM tenant_member_roles WHERE tenant_member_id = $1`, [membershipId]);
  return rows.map((row) => row.role_id);
}

/** Adds roles to a membership; answers the ids of those it did not already have. */
export async function addMembershipRoles(db: Queryable, membershipId: string, roleIds: readonly string[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const rows = await db.query<Array<{ role_id: string }>>(
    `INSERT INTO tenant_member_roles (tenant_member_id, role_id)
     SELECT $1, role_id FROM unnest($2::uuid[]) AS role_id
     ON CONFLICT DO NOTHING
     RETURNING role_id`,
    [membershipId, roleIds],
  );
  return rows.map((row) => row.role_id);
}

/** Removes roles from a membership; answers the ids of those it held. */
export async function removeMembershipRoles(db: Queryable, membershipId: string, roleIds: readonly string[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const rows = await db.query<Array<{ role_id: string }>>(
    `WITH removed AS (DELETE FROM tenant_member_roles WHERE tenant_member_id = $1 AND role_id = ANY($2::uuid[]) RETURNING role_id) SELECT role_id FROM removed`,
    [membershipId, roleIds],
  );
  return rows.map((row) => row.role_id);
}

/** Deletes the membership when it holds no role any more; answers whether it did. */
export async function deleteEmptyMembership(db: Queryable, membershipId: string): Promise<boolean> {
  const rows = await db.query<Array<{ id: string }>>(
    `WITH deleted AS (
       DELETE FROM tenant_members m WHERE m.id = $1 AND NOT EXISTS (SELECT 1 FROM tenant_member_roles x WHERE x.tenant_member_id = m.id) RETURNING m.id
     ) SELECT id FROM deleted`,
    [membershipId],
  );
  return rows.length > 0;
}

/** Deletes a membership with every role it holds; answers the ids of those roles. */
export async function deleteMembership(db: Queryable, membershipId: string): Promise<string[]> {
  const roles = await findMembershipRoleIds(db, membershipId);
  await db.query(`DELETE FROM tenant_members WHERE id = $1`, [membershipId]);
  return roles;
}

/** Ends an account's access to one application (its LockUser): the provider refuses it that application's sign-in. */
export async function blockApplicationAccess(db: Queryable, applicationId: string, userId: string): Promise<void> {
  await db.query(`INSERT INTO application_user_blocks (application_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [applicationId, userId]);
}

/** Gives an account its access to an application back (an administrator grants it one of the application's roles). */
export async function unblockApplicationAccess(db: Queryable, applicationId: string, userId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(
    `WITH removed AS (DELETE FROM application_user_blocks WHERE application_id = $1 AND user_id = $2 RETURNING user_id) SELECT user_id FROM removed`,
    [applicationId, userId],
  );
  return rows.length > 0;
}

/** Whether the application ended the account's access to it. */
export async function isApplicationAccessBlocked(db: Queryable, applicationId: string, userId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(`SELECT 1 FROM application_user_blocks WHERE application_id = $1 AND user_id = $2`, [applicationId, userId]);
  return rows.length > 0;
}

/** Whether the account holds any role (own or through a group) of another application than this one. */
export async function holdsRolesOutside(db: Queryable, userId: string, applicationId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(
    `SELECT 1
       FROM tenant_members tm
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
       JOIN roles r ON r.id = tmr.role_id
      WHERE r.application_id <> $2
        AND (tm.user_id = $1 OR tm.group_id IN (SELECT group_id FROM group_members WHERE user_id = $1))
      LIMIT 1`,
    [userId, applicationId],
  );
  return rows.length > 0;
}

/**
 * Whether the account holds a role in a tenant other than these: its own memberships, and those of
 * its groups (the Global tenant's group memberships aside: every user's base roles).
 */
export async function holdsRolesOutsideTenants(db: Queryable, userId: string, tenantIds: readonly string[]): Promise<boolean> {
  const rows = await db.query<unknown[]>(
    `SELECT 1
       FROM tenant_members tm
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
      WHERE tm.tenant_id <> ALL($2::uuid[])
        AND (tm.user_id = $1 OR (tm.tenant_id <> $3 AND tm.group_id IN (SELECT group_id FROM group_members WHERE user_id = $1)))
      LIMIT 1`,
    [userId, tenantIds, GLOBAL_TENANT_ID],
  );
  return rows.length > 0;
}

/** The application that created the account through the external API, if one did. */
export async function findCreatingApplication(db: Queryable, userId: string): Promise<string | null> {
  const rows = await db.query<Array<{ created_by_application_id: string | null }>>(`SELECT created_by_application_id FROM users WHERE id = $1`, [userId]);
  return rows[0]?.created_by_application_id ?? null;
}

/** A CTE `memberships` of the user $1: their own (direct) and those of every group they belong to (`group_id`). */
export const USER_MEMBERSHIPS = `
  memberships AS (
    SELECT tm.id, tm.tenant_id, tm.is_inheritable, true AS direct, NULL::uuid AS group_id
      FROM tenant_members tm
     WHERE tm.user_id = $1
    UNION ALL
    SELECT tm.id, tm.tenant_id, tm.is_inheritable, false, tm.group_id
      FROM tenant_members tm
      JOIN group_members gm ON gm.group_id = tm.group_id
     WHERE gm.user_id = $1
  )`;

export interface RoleGrantRow {
  tenant_id: string;
  tenant_name: string;
  application_id: string;
  application_name: string;
  /** The application as users see it. */
  application_display_name: string;
  role_id: string;
  role_name: string;
  description: string | null;
  /** Granted to the user in their own name in this tenant: the badge can be removed. */
  own: boolean;
  /** Also (or only) held through a group in this tenant, or inherited from an ancestor tenant. */
  by_hierarchy: boolean;
  /** Every way the user holds it in this tenant. */
  origins: RoleOrigin[];
}

/**
 * The origin of a grant of membership `m` (of the user or of group `m.group_id`) that applies in
 * tenant `here`, as JSON: own, through the group, or inherited from the membership's tenant.
 */
const originOf = (here: string, grantTenant: string, groupId: string) => `jsonb_build_object(
  'via', CASE WHEN ${grantTenant} <> ${here} THEN 'hierarchy' WHEN ${groupId} IS NULL THEN 'own' ELSE 'group' END,
  'groupName', (SELECT g.name FROM groups g WHERE g.id = ${groupId}),
  'tenantName', CASE WHEN ${grantTenant} <> ${here} THEN (SELECT gt.title FROM tenants gt WHERE gt.id = ${grantTenant}) END)`;

/** The origins a query gathered, in the order they are shown. */
const originsOf = <T extends { origins: RoleOrigin[] }>(rows: T[]): T[] => rows.map((row) => ({ ...row, origins: sortRoleOrigins(row.origins) }));

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
     ${USER_MEMBERSHIPS},
     ancestors(tenant_id, ancestor_id) AS (
       SELECT t.id, t.parent_id FROM tenants t
        WHERE t.id IN (SELECT tenant_id FROM memberships) AND t.parent_id IS NOT NULL
       UNION
       SELECT x.tenant_id, t.parent_id FROM ancestors x JOIN tenants t ON t.id = x.ancestor_id
        WHERE t.parent_id IS NOT NULL
     ),
     sources AS (
       SELECT m.tenant_id, tmr.role_id, m.direct AS own, NOT m.direct AS by_hierarchy, m.tenant_id AS grant_tenant_id, m.group_id
         FROM memberships m JOIN tenant_member_roles tmr ON tmr.tenant_member_id = m.id
       UNION ALL
       SELECT x.tenant_id, tmr.role_id, false, true, m.tenant_id, m.group_id
         FROM ancestors x
         JOIN memberships m ON m.tenant_id = x.ancestor_id AND m.is_inheritable
         JOIN tenant_member_roles tmr ON tmr.tenant_member_id = m.id
     )
     SELECT s.tenant_id, t.title AS tenant_name, r.application_id, a.name AS application_name, a.display_name AS application_display_name,
            r.id AS role_id, r.name AS role_name, r.description,
            bool_or(s.own) AS own, bool_or(s.by_hierarchy) AS by_hierarchy,
            jsonb_agg(DISTINCT ${originOf('s.tenant_id', 's.grant_tenant_id', 's.group_id')}) AS origins
       FROM sources s
       JOIN roles r ON r.id = s.role_id
       JOIN applications a ON a.id = r.application_id
       JOIN tenants t ON t.id = s.tenant_id
      WHERE $2::varchar IS NULL OR r.application_id = $2
      GROUP BY s.tenant_id, t.title, r.application_id, a.name, a.display_name, r.id, r.name, r.description
      ORDER BY t.title, s.tenant_id, r.name, r.id`,
    [userId, applicationId],
  ).then(originsOf);
}

/** Where a role an identity holds in a tenant comes from. */
export interface HeldRoleOrigins {
  identityId: string;
  roleId: string;
  origins: RoleOrigin[];
}

/**
 * Every way each of these users (or groups) holds its roles in tenant $1: the identity's own
 * membership of it, a group's membership of it (users), or an inheritable membership (its own or a
 * group's) of an ancestor, or any membership of the Global tenant, whose roles apply everywhere.
 */
export async function findRoleOrigins(db: Queryable, tenantId: string, identityType: IdentityType, identityIds: readonly string[]): Promise<HeldRoleOrigins[]> {
  if (identityIds.length === 0) return [];
  const rows = await db.query<Array<{ identity_id: string; role_id: string; origins: RoleOrigin[] }>>(
    `WITH RECURSIVE
     ancestors(id) AS (
       SELECT parent_id FROM tenants WHERE id = $1 AND parent_id IS NOT NULL
       UNION
       SELECT t.parent_id FROM ancestors x JOIN tenants t ON t.id = x.id WHERE t.parent_id IS NOT NULL
     ),
     reach AS (
       SELECT tm.id, tm.tenant_id, tm.is_inheritable, coalesce(tm.user_id, tm.group_id) AS identity_id, NULL::uuid AS group_id
         FROM tenant_members tm
        WHERE tm.identity_type = $3 AND coalesce(tm.user_id, tm.group_id) = ANY($2::uuid[])
       UNION ALL
       SELECT tm.id, tm.tenant_id, tm.is_inheritable, gm.user_id, tm.group_id
         FROM group_members gm JOIN tenant_members tm ON tm.group_id = gm.group_id
        WHERE $3 = 'User' AND gm.user_id = ANY($2::uuid[])
     )
     SELECT m.identity_id, tmr.role_id, jsonb_agg(DISTINCT ${originOf('$1::uuid', 'm.tenant_id', 'm.group_id')}) AS origins
       FROM reach m
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = m.id
      WHERE m.tenant_id = $1 OR m.tenant_id = '${GLOBAL_TENANT_ID}' OR (m.is_inheritable AND m.tenant_id IN (SELECT id FROM ancestors))
      GROUP BY m.identity_id, tmr.role_id`,
    [tenantId, identityIds, identityType],
  );
  return originsOf(rows.map((row) => ({ identityId: row.identity_id, roleId: row.role_id, origins: row.origins })));
}
