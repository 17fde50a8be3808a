import { sortRoleOrigins, type RoleOrigin, type TenantMember, type TenantMemberRole } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, likePattern, type IdentityType, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';
import { MAX_DEPTH } from '../directory/lookups.js';

/**
 * The memberships that give roles in tenant $1: its own, the inheritable ones of its ancestors,
 * and (when $2) those of the Global tenant, which apply everywhere. $3 and $4 narrow them to one
 * identity type and one identity. A membership without roles gives nothing and is left out.
 */
const SOURCES = `
  ancestors(id, depth) AS (
    SELECT parent_id, 1 FROM tenants WHERE id = $1 AND parent_id IS NOT NULL
    UNION ALL
    SELECT t.parent_id, x.depth + 1 FROM ancestors x JOIN tenants t ON t.id = x.id WHERE t.parent_id IS NOT NULL AND x.depth < ${MAX_DEPTH}
  ),
  sources AS (
    SELECT tm.id AS membership_id, tm.identity_type, coalesce(tm.user_id, tm.group_id) AS identity_id,
           tm.is_inheritable, tm.tenant_id = $1 AS own, tm.tenant_id AS grant_tenant_id
      FROM tenant_members tm
     WHERE (tm.tenant_id = $1
            OR (tm.is_inheritable AND tm.tenant_id IN (SELECT id FROM ancestors))
            OR ($2::boolean AND tm.tenant_id = '${GLOBAL_TENANT_ID}'))
       AND ($3::varchar IS NULL OR tm.identity_type = $3)
       AND ($4::uuid IS NULL OR coalesce(tm.user_id, tm.group_id) = $4)
       AND EXISTS (SELECT 1 FROM tenant_member_roles tmr WHERE tmr.tenant_member_id = tm.id)
  )`;

/** Own, ByHierarchy or Both, from whether some grant is the tenant's own and some comes from elsewhere. */
const hierarchyType = (own: string, inherited: string) => `CASE WHEN ${own} AND ${inherited} THEN 'Both' WHEN ${own} THEN 'Own' ELSE 'ByHierarchy' END`;

/** One row per identity, with its name: a user's full name (user name when none), a group's name. */
const LISTED = `
  members AS (
    SELECT s.identity_type, s.identity_id,
           (array_agg(s.membership_id) FILTER (WHERE s.own))[1] AS id,
           bool_or(s.own) AS own, bool_or(NOT s.own) AS inherited,
           -- The own membership's flag; roles that come from elsewhere flow down by definition.
           coalesce(bool_or(s.is_inheritable) FILTER (WHERE s.own), true) AS is_inheritable
      FROM sources s
     GROUP BY s.identity_type, s.identity_id
  ),
  listed AS (
    SELECT m.identity_type, m.identity_id, m.id, m.is_inheritable,
           ${hierarchyType('m.own', 'm.inherited')} AS hierarchy_type,
           CASE WHEN m.identity_type = 'User'
                THEN coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.user_name)
                ELSE g.name END AS display_name,
           u.email, u.user_name
      FROM members m
      LEFT JOIN users u ON m.identity_type = 'User' AND u.id = m.identity_id
      LEFT JOIN groups g ON m.identity_type = 'Group' AND g.id = m.identity_id
  )`;

/** The members list's sortable fields and the output columns they sort by. */
export const MEMBER_SORT = { displayName: 'display_name', email: 'email', identityType: 'identity_type', hierarchyType: 'hierarchy_type' };

export interface MemberFilter {
  tenantId: string;
  /** Also the roles held in the Global tenant. */
  includeGlobal: boolean;
  identityType?: IdentityType;
  identityId?: string;
}

interface MemberRow {
  identity_type: IdentityType;
  identity_id: string;
  id: string | null;
  is_inheritable: boolean;
  hierarchy_type: TenantMember['hierarchyType'];
  display_name: string;
  email: string | null;
  total?: string;
}

/** A member without its roles, and the tenant it is a member of. */
export type MemberRecord = Omit<TenantMember, 'roles'>;

const sourceParams = (filter: MemberFilter) => [filter.tenantId, filter.includeGlobal, filter.identityType ?? null, filter.identityId ?? null];

/** One page of the tenant's members, searched and sorted in SQL, with the total of the selection. */
export async function listMembers(
  db: Queryable,
  filter: MemberFilter,
  tenant: { id: string; title: string },
  query: ListQuery,
): Promise<{ items: MemberRecord[]; count: number }> {
  const params = [...sourceParams(filter), query.search ? likePattern(query.search) : null];
  const where = `($5::text IS NULL OR display_name ILIKE $5 OR email ILIKE $5 OR user_name ILIKE $5)`;
  const rows = await db.query<MemberRow[]>(
    `WITH RECURSIVE ${SOURCES}, ${LISTED}
     SELECT identity_type, identity_id, id, is_inheritable, hierarchy_type, display_name, email, count(*) OVER () AS total
       FROM listed
      WHERE ${where}
      ORDER BY ${query.orderBy}, identity_type, identity_id
      LIMIT $6 OFFSET $7`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`WITH RECURSIVE ${SOURCES}, ${LISTED} SELECT count(*) FROM listed WHERE ${where}`, params);
    return Number(row!.count);
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      tenantId: tenant.id,
      tenantName: tenant.title,
      identityType: row.identity_type,
      identityId: row.identity_id,
      email: row.identity_type === 'User' ? row.email : null,
      displayName: row.display_name,
      isInheritable: row.is_inheritable,
      hierarchyType: row.hierarchy_type,
    })),
    count,
  };
}

/**
 * The roles the identities hold in the tenant, by identity id, each with where it comes from
 * (Own, ByHierarchy or Both); by application name, then role name.
 */
export async function findMemberRoles(db: Queryable, filter: MemberFilter, identityIds: string[]): Promise<Map<string, TenantMemberRole[]>> {
  const byIdentity = new Map<string, TenantMemberRole[]>(identityIds.map((id) => [id, []]));
  if (identityIds.length === 0) return byIdentity;
  const rows = await db.query<
    Array<{
      identity_id: string;
      role_id: string;
      role_name: string;
      application_id: string;
      application_name: string;
      application_display_name: string;
      hierarchy_type: TenantMemberRole['hierarchyType'];
      origins: RoleOrigin[];
    }>
  >(
    // A member's roles are those of its own memberships: in its own name here, or inherited from
    // the tenant of an inheritable membership above (or the Global tenant).
    `WITH RECURSIVE ${SOURCES}
     SELECT s.identity_id, r.id AS role_id, r.name AS role_name, a.id AS application_id, a.name AS application_name, a.display_name AS application_display_name,
            ${hierarchyType('bool_or(s.own)', 'bool_or(NOT s.own)')} AS hierarchy_type,
            jsonb_agg(DISTINCT jsonb_build_object(
              'via', CASE WHEN s.own THEN 'own' ELSE 'hierarchy' END,
              'groupName', NULL,
              'tenantName', CASE WHEN s.own THEN NULL ELSE (SELECT gt.title FROM tenants gt WHERE gt.id = s.grant_tenant_id) END)) AS origins
       FROM sources s
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = s.membership_id
       JOIN roles r ON r.id = tmr.role_id
       JOIN applications a ON a.id = r.application_id
      WHERE s.identity_id = ANY($5::uuid[])
      GROUP BY s.identity_id, r.id, r.name, a.id, a.name, a.display_name
      ORDER BY a.name, r.name, r.id`,
    [...sourceParams(filter), identityIds],
  );
  for (const row of rows) {
    byIdentity.get(row.identity_id)?.push({
      roleId: row.role_id,
      roleName: row.role_name,
      applicationId: row.application_id,
      applicationName: row.application_name,
      applicationDisplayName: row.application_display_name,
      hierarchyType: row.hierarchy_type,
      origins: sortRoleOrigins(row.origins),
    });
  }
  return byIdentity;
}

/** Whether the user or group exists. */
export async function identityExists(db: Queryable, identityType: IdentityType, id: string): Promise<boolean> {
  const table = identityType === 'User' ? 'users' : 'groups';
  const rows = await db.query<unknown[]>(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
  return rows.length > 0;
}

/** A role the identity holds in its own membership of a tenant. */
export interface HeldApplicationRole {
  tenantId: string;
  tenantTitle: string;
  tenantAreaId: string | null;
  roleId: string;
}

/**
 * The roles of these applications the identity holds in its own memberships of the tenants given:
 * in the first, all of them; in the others (its ancestors), those of inheritable memberships.
 */
export async function findIdentityRolesIn(
  db: Queryable,
  identityType: IdentityType,
  identityId: string,
  tenantIds: string[],
  applicationIds: string[],
): Promise<HeldApplicationRole[]> {
  const column = identityType === 'User' ? 'user_id' : 'group_id';
  return db.query<HeldApplicationRole[]>(
    `SELECT tm.tenant_id AS "tenantId", t.title AS "tenantTitle", t.area_id AS "tenantAreaId", r.id AS "roleId"
       FROM tenant_members tm
       JOIN tenants t ON t.id = tm.tenant_id
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
       JOIN roles r ON r.id = tmr.role_id
      WHERE tm.${column} = $1 AND tm.tenant_id = ANY($2::uuid[]) AND r.application_id = ANY($3::varchar[])
        AND (tm.tenant_id = $4 OR tm.is_inheritable)
      ORDER BY t.title, tm.tenant_id, r.name`,
    [identityId, tenantIds, applicationIds, tenantIds[0]],
  );
}
