import type { RoleOrigin } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, likePattern, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** The SQL each sortable field of an application's users list sorts by. */
export const APPLICATION_USER_SORT = {
  userName: 'u.user_name',
  email: 'u.email',
  firstName: 'u.first_name',
  lastName: 'u.last_name',
  areaName: 'a.name',
} as const;

/** Which of the application's users a page lists. */
export interface ApplicationUserFilter {
  /** true: holding a role of the application in the Global tenant; false: holding none there. */
  globalRoles?: boolean;
  areaId?: string;
  /** Only the holders of one of these roles. */
  roleIds?: string[];
  /** The areas the caller reaches; null: every area. */
  areaIds: string[] | null;
}

export interface ApplicationUserRow {
  id: string;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  area_name: string;
}

export interface UserRoleRow {
  user_id: string;
  id: string;
  name: string;
  description: string | null;
  is_global: boolean;
  origins: RoleOrigin[];
}

// Who holds which role of application $1 in which tenant: on their own membership (group_id null),
// or on the membership of a group they belong to. Inheritance down the tenant tree adds tenants,
// never holders or roles, so it is not walked here.
const HOLDINGS = `
  holdings AS (
    SELECT tm.user_id, tmr.role_id, tm.tenant_id, NULL::uuid AS group_id
      FROM tenant_members tm
      JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
      JOIN roles r ON r.id = tmr.role_id
     WHERE tm.user_id IS NOT NULL AND r.application_id = $1
    UNION ALL
    SELECT gm.user_id, tmr.role_id, tm.tenant_id, tm.group_id
      FROM tenant_members tm
      JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
      JOIN roles r ON r.id = tmr.role_id
      JOIN group_members gm ON gm.group_id = tm.group_id
     WHERE r.application_id = $1
  )`;

const HOLDERS = `
  ${HOLDINGS},
  holders AS (
    SELECT user_id FROM holdings
     GROUP BY user_id
    HAVING ($2::boolean IS NULL OR bool_or(tenant_id = '${GLOBAL_TENANT_ID}') = $2)
       AND ($3::uuid[] IS NULL OR bool_or(role_id = ANY($3::uuid[])))
  )`;

const FROM = `holders h JOIN users u ON u.id = h.user_id JOIN areas a ON a.id = u.area_id`;

const WHERE = `($4::uuid IS NULL OR u.area_id = $4) AND ($5::uuid[] IS NULL OR u.area_id = ANY($5::uuid[]))
  AND ($6::text IS NULL OR u.user_name ILIKE $6 OR u.email ILIKE $6 OR u.first_name ILIKE $6 OR u.last_name ILIKE $6)`;

/** A page of the users holding roles of the application, filtered, and their total. */
export async function listApplicationUsers(
  db: Queryable,
  appId: string,
  filter: ApplicationUserFilter,
  query: ListQuery,
): Promise<{ rows: ApplicationUserRow[]; count: number }> {
  const params = [
    appId,
    filter.globalRoles ?? null,
    filter.roleIds ?? null,
    filter.areaId ?? null,
    filter.areaIds,
    query.search ? likePattern(query.search) : null,
  ];
  const rows = await db.query<Array<ApplicationUserRow & { total: string }>>(
    `WITH ${HOLDERS}
     SELECT u.id, u.user_name, u.email, u.first_name, u.last_name, a.name AS area_name, count(*) OVER () AS total
       FROM ${FROM}
      WHERE ${WHERE}
      ORDER BY ${query.orderBy}, u.id
      LIMIT $7 OFFSET $8`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`WITH ${HOLDERS} SELECT count(*) FROM ${FROM} WHERE ${WHERE}`, params);
    return Number(row!.count);
  });
  return { rows, count };
}

/**
 * The roles of the application these users hold, by role name; is_global: held (also) in the Global
 * tenant; origins: held in their own name and through which groups, in any tenant.
 */
export async function findUserRoles(db: Queryable, appId: string, userIds: string[]): Promise<UserRoleRow[]> {
  if (userIds.length === 0) return [];
  return db.query<UserRoleRow[]>(
    `WITH ${HOLDINGS}
     SELECT h.user_id, r.id, r.name, r.description, bool_or(h.tenant_id = '${GLOBAL_TENANT_ID}') AS is_global,
            jsonb_agg(DISTINCT jsonb_build_object('via', CASE WHEN h.group_id IS NULL THEN 'own' ELSE 'group' END, 'groupName', g.name, 'tenantName', NULL)) AS origins
       FROM holdings h JOIN roles r ON r.id = h.role_id LEFT JOIN groups g ON g.id = h.group_id
      WHERE h.user_id = ANY($2::uuid[])
      GROUP BY h.user_id, r.id, r.name, r.description
      ORDER BY r.name, r.id`,
    [appId, userIds],
  );
}
