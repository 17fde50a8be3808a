import type { HierarchyType } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, likePattern, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';
import { MAX_DEPTH } from '../directory/lookups.js';

/** The list's sortable fields and the output columns they sort by. */
export const SERVICE_MANAGER_USER_SORT = { fullName: 'full_name', userName: 'user_name', email: 'email' };
export const SERVICE_MANAGER_TENANT_SORT = { title: 'title' };

/** The ancestors of tenant $1, nearest first. */
const ANCESTORS = `
  ancestors(id, depth) AS (
    SELECT parent_id, 1 FROM tenants WHERE id = $1 AND parent_id IS NOT NULL
    UNION ALL
    SELECT t.parent_id, x.depth + 1 FROM ancestors x JOIN tenants t ON t.id = x.id WHERE t.parent_id IS NOT NULL AND x.depth < ${MAX_DEPTH}
  )`;

/**
 * The users of tenant $1: those with roles in their own membership of it, or in their own
 * inheritable membership of one of its ancestors; never a draft (pending approval).
 */
const TENANT_USERS = `
  tenant_users AS (
    SELECT DISTINCT u.id, coalesce(nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.user_name) AS full_name, u.user_name, u.email
      FROM tenant_members tm
      JOIN users u ON u.id = tm.user_id
     WHERE (tm.tenant_id = $1 OR (tm.is_inheritable AND tm.tenant_id IN (SELECT id FROM ancestors)))
       AND NOT u.draft
       AND EXISTS (SELECT 1 FROM tenant_member_roles tmr WHERE tmr.tenant_member_id = tm.id)
  )`;

export interface TenantRow {
  id: string;
  title: string;
}

/** One page of the tenants (all but the Global tenant, or those of `ids`), by title, searched on the title. */
export async function listTenants(db: Queryable, ids: string[] | null, query: ListQuery): Promise<{ items: TenantRow[]; count: number }> {
  const params = [GLOBAL_TENANT_ID, ids, query.search ? likePattern(query.search) : null];
  const where = `id <> $1 AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[])) AND ($3::text IS NULL OR title ILIKE $3)`;
  const rows = await db.query<Array<TenantRow & { total: string }>>(
    `SELECT id, title, count(*) OVER () AS total FROM tenants WHERE ${where} ORDER BY ${query.orderBy}, id LIMIT $4 OFFSET $5`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM tenants WHERE ${where}`, params);
    return Number(row!.count);
  });
  return { items: rows.map((row) => ({ id: row.id, title: row.title })), count };
}

/** The tenant, unless it is the Global tenant or does not exist. */
export async function findClientTenant(db: Queryable, id: string): Promise<TenantRow | undefined> {
  const rows = await db.query<TenantRow[]>(`SELECT id, title FROM tenants WHERE id = $1 AND id <> $2`, [id, GLOBAL_TENANT_ID]);
  return rows[0];
}

export interface TenantUserRow {
  id: string;
  full_name: string;
  user_name: string;
  email: string;
}

/** One page of the tenant's users, searched and sorted in SQL. */
export async function listTenantUsers(db: Queryable, tenantId: string, query: ListQuery): Promise<{ items: TenantUserRow[]; count: number }> {
  const params = [tenantId, query.search ? likePattern(query.search) : null];
  const where = `($2::text IS NULL OR full_name ILIKE $2 OR user_name ILIKE $2 OR email ILIKE $2)`;
  const rows = await db.query<Array<TenantUserRow & { total: string }>>(
    `WITH RECURSIVE ${ANCESTORS}, ${TENANT_USERS}
     SELECT id, full_name, user_name, email, count(*) OVER () AS total FROM tenant_users
      WHERE ${where}
      ORDER BY ${query.orderBy}, id
      LIMIT $3 OFFSET $4`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`WITH RECURSIVE ${ANCESTORS}, ${TENANT_USERS} SELECT count(*) FROM tenant_users WHERE ${where}`, params);
    return Number(row!.count);
  });
  return { items: rows.map(({ total: _total, ...row }) => row), count };
}

/** The user if they are a user of the tenant (as the list counts them). */
export async function findTenantUser(db: Queryable, tenantId: string, userId: string): Promise<TenantUserRow | undefined> {
  const rows = await db.query<TenantUserRow[]>(
    `WITH RECURSIVE ${ANCESTORS}, ${TENANT_USERS} SELECT id, full_name, user_name, email FROM tenant_users WHERE id = $2`,
    [tenantId, userId],
  );
  return rows[0];
}

export interface HeldRoleRow {
  user_id: string;
  role_id: string;
  role_name: string;
  application_id: string;
  /** The application's display name. */
  application_name: string;
  /** The application's own name (its client id). */
  application_client_name: string;
  hierarchy_type: HierarchyType;
}

/**
 * The roles the users hold in tenant $1, by application display name then role name: Own when in
 * their own membership of the tenant; ByHierarchy when through a group's membership of it, an
 * inheritable membership (theirs or a group's) of an ancestor, or the Global tenant; Both.
 */
export async function findHeldRoles(db: Queryable, tenantId: string, userIds: string[]): Promise<HeldRoleRow[]> {
  if (userIds.length === 0) return [];
  const applies = `(tm.tenant_id = $1 OR tm.tenant_id = '${GLOBAL_TENANT_ID}' OR (tm.is_inheritable AND tm.tenant_id IN (SELECT id FROM ancestors)))`;
  return db.query<HeldRoleRow[]>(
    `WITH RECURSIVE ${ANCESTORS},
     sources AS (
       SELECT tm.user_id, tmr.role_id, tm.tenant_id = $1 AS own
         FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
        WHERE tm.user_id = ANY($2::uuid[]) AND ${applies}
       UNION ALL
       SELECT gm.user_id, tmr.role_id, false
         FROM group_members gm
         JOIN tenant_members tm ON tm.group_id = gm.group_id
         JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
        WHERE gm.user_id = ANY($2::uuid[]) AND ${applies}
     )
     SELECT s.user_id, r.id AS role_id, r.name AS role_name, a.id AS application_id, a.display_name AS application_name, a.name AS application_client_name,
            CASE WHEN bool_or(s.own) AND bool_or(NOT s.own) THEN 'Both' WHEN bool_or(s.own) THEN 'Own' ELSE 'ByHierarchy' END AS hierarchy_type
       FROM sources s
       JOIN roles r ON r.id = s.role_id
       JOIN applications a ON a.id = r.application_id
      GROUP BY s.user_id, r.id, r.name, a.id, a.display_name, a.name
      ORDER BY a.display_name, r.name, r.id`,
    [tenantId, userIds],
  );
}

export interface ServiceManagerRoleRow {
  id: string;
  name: string;
  application_id: string;
  application_name: string;
  /** Changeable in service-manager mode: flagged so, and never the God role. */
  visible: boolean;
  by_hierarchy: boolean;
}

/** Whether a role may be changed in service-manager mode (God and Administrator never, whatever their flag: tenant access's rule). */
const VISIBLE = `(r.service_manager_visibility AND NOT (r.application_id = '${IDENTITY_APPLICATION_ID}' AND r.name IN ('God', 'Administrator')))`;

/**
 * The roles of these ids, or (null) every role changeable in service-manager mode and those of
 * `alsoIds`; by application display name, then name.
 */
export async function findServiceManagerRoles(db: Queryable, ids: string[] | null, alsoIds: readonly string[] = []): Promise<ServiceManagerRoleRow[]> {
  return db.query<ServiceManagerRoleRow[]>(
    `SELECT r.id, r.name, r.application_id, a.display_name AS application_name, ${VISIBLE} AS visible, r.by_hierarchy
       FROM roles r JOIN applications a ON a.id = r.application_id
      WHERE ($1::uuid[] IS NULL AND (${VISIBLE} OR r.id = ANY($2::uuid[]))) OR r.id = ANY($1::uuid[])
      ORDER BY a.display_name, r.name, r.id`,
    [ids, alsoIds],
  );
}

interface MembershipRow {
  id: string;
  is_inheritable: boolean;
}

/** The flag of the user's own membership of the tenant; undefined when they have none. */
export async function findMembershipInheritable(db: Queryable, tenantId: string, userId: string): Promise<boolean | undefined> {
  const rows = await db.query<MembershipRow[]>(`SELECT id, is_inheritable FROM tenant_members WHERE tenant_id = $1 AND user_id = $2`, [tenantId, userId]);
  return rows[0]?.is_inheritable;
}
