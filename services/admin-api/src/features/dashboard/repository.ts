import { ADMINISTRATOR_ROLE } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID } from '@gatehouse/core';
import type { Queryable } from '../../db.js';

export interface DirectoryCounts {
  users: number;
  groups: number;
  apps: number;
  areas: number;
  tenants: number;
}

/** The directory's counts in one round trip; the Global tenant is a technical row, not a tenant anyone created. */
export async function countDirectory(db: Queryable): Promise<DirectoryCounts> {
  const [row] = await db.query<Array<Record<keyof DirectoryCounts, string>>>(
    `SELECT (SELECT count(*) FROM users) AS users,
            (SELECT count(*) FROM groups) AS groups,
            (SELECT count(*) FROM applications) AS apps,
            (SELECT count(*) FROM areas) AS areas,
            (SELECT count(*) FROM tenants WHERE id <> $1) AS tenants`,
    [GLOBAL_TENANT_ID],
  );
  return { users: Number(row!.users), groups: Number(row!.groups), apps: Number(row!.apps), areas: Number(row!.areas), tenants: Number(row!.tenants) };
}

/**
 * Successful sign-ins per hour from `first` (an hour's first instant) for `hours` hours, up to
 * `until`; hours without any are answered with 0. One range scan of authentication_logs__result_date.
 */
export async function countSuccessfulSignInsPerHour(db: Queryable, first: Date, hours: number, until: Date): Promise<Array<{ hour: Date; count: number }>> {
  // date_bin with a UTC origin: UTC hours whatever the session's time zone.
  const rows = await db.query<Array<{ hour: Date; count: number }>>(
    `WITH hits AS (
       SELECT date_bin('1 hour', date, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS hour, count(*)::int AS count
         FROM authentication_logs
        WHERE result = 'Success' AND date >= $1 AND date <= $3
        GROUP BY 1
     )
     SELECT s.hour, COALESCE(h.count, 0) AS count
       FROM generate_series($1::timestamptz, $1::timestamptz + ($2::int - 1) * INTERVAL '1 hour', INTERVAL '1 hour') AS s(hour)
       LEFT JOIN hits h ON h.hour = s.hour
      ORDER BY s.hour`,
    [first, hours, until],
  );
  return rows.map((row) => ({ hour: new Date(row.hour), count: Number(row.count) }));
}

/**
 * For each application with an Administrator role: how many users hold it in the Global tenant,
 * directly or through any of their groups, each user once (0 when nobody does).
 */
export async function countGlobalAdministratorsPerApplication(
  db: Queryable,
): Promise<Array<{ applicationId: string; applicationName: string; displayName: string; count: number }>> {
  return db.query(
    `WITH admin_roles AS (
       SELECT id, application_id FROM roles WHERE name = $2
     ),
     grants AS (
       SELECT tmr.role_id, tm.user_id, tm.group_id
         FROM tenant_members tm
         JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
        WHERE tm.tenant_id = $1 AND tmr.role_id IN (SELECT id FROM admin_roles)
     ),
     holders AS (
       SELECT role_id, user_id FROM grants WHERE user_id IS NOT NULL
       UNION
       SELECT g.role_id, gm.user_id FROM grants g JOIN group_members gm ON gm.group_id = g.group_id
     )
     SELECT a.id AS "applicationId", a.name AS "applicationName", a.display_name AS "displayName", count(h.user_id)::int AS count
       FROM admin_roles ar
       JOIN applications a ON a.id = ar.application_id
       LEFT JOIN holders h ON h.role_id = ar.id
      GROUP BY a.id, a.name, a.display_name
      ORDER BY count DESC, a.display_name, a.id`,
    [GLOBAL_TENANT_ID, ADMINISTRATOR_ROLE],
  );
}

/**
 * Users per area of their account who hold an Administrator role (of `applicationId`, or of any
 * application) applying in `tenantId`: granted there, in an ancestor through an inheritable
 * membership, or in the Global tenant; directly or through a group; each user once. Areas without
 * any are left out; so is everything when the tenant does not exist.
 */
export async function countAdministratorsPerArea(
  db: Queryable,
  tenantId: string,
  applicationId: string | null,
): Promise<Array<{ areaId: string; areaName: string; count: number }>> {
  return db.query(
    `WITH RECURSIVE
     ancestors(id) AS (
       SELECT parent_id FROM tenants WHERE id = $1 AND parent_id IS NOT NULL
       UNION
       SELECT t.parent_id FROM ancestors x JOIN tenants t ON t.id = x.id WHERE t.parent_id IS NOT NULL
     ),
     grants AS (
       SELECT tm.user_id, tm.group_id
         FROM tenant_members tm
        WHERE (tm.tenant_id = $1 OR tm.tenant_id = $2 OR (tm.is_inheritable AND tm.tenant_id IN (SELECT id FROM ancestors)))
          -- An unknown tenant has no administrators, not even the Global ones: the caller is told it does not exist.
          AND EXISTS (SELECT 1 FROM tenants WHERE id = $1)
          AND EXISTS (
            SELECT 1 FROM tenant_member_roles tmr JOIN roles r ON r.id = tmr.role_id
             WHERE tmr.tenant_member_id = tm.id AND r.name = $3 AND ($4::varchar IS NULL OR r.application_id = $4)
          )
     ),
     administrators AS (
       SELECT user_id FROM grants WHERE user_id IS NOT NULL
       UNION
       SELECT gm.user_id FROM grants g JOIN group_members gm ON gm.group_id = g.group_id
     )
     SELECT ar.id AS "areaId", ar.name AS "areaName", count(*)::int AS count
       FROM administrators x
       JOIN users u ON u.id = x.user_id
       JOIN areas ar ON ar.id = u.area_id
      GROUP BY ar.id, ar.name
      ORDER BY count DESC, ar.name, ar.id`,
    [tenantId, GLOBAL_TENANT_ID, ADMINISTRATOR_ROLE, applicationId],
  );
}

/** Whether a tenant and an application exist (a null id: not asked, answered true). */
export async function filtersExist(db: Queryable, tenantId: string | null, applicationId: string | null): Promise<{ tenant: boolean; application: boolean }> {
  const [row] = await db.query<Array<{ tenant: boolean; application: boolean }>>(
    `SELECT ($1::uuid IS NULL OR EXISTS (SELECT 1 FROM tenants WHERE id = $1)) AS tenant,
            ($2::varchar IS NULL OR EXISTS (SELECT 1 FROM applications WHERE id = $2)) AS application`,
    [tenantId, applicationId],
  );
  return row!;
}

/**
 * Distinct users per application to whom a token was issued between `since` and `until` (the
 * session log: one row per token). A row without a user id counts by its user name. The display
 * name is today's; an application deleted since keeps its logged name.
 */
export async function countConnectedUsersPerApplication(
  db: Queryable,
  since: Date,
  until: Date,
): Promise<Array<{ applicationName: string; displayName: string; count: number }>> {
  return db.query(
    `SELECT s.application_name AS "applicationName", COALESCE(a.display_name, s.application_name) AS "displayName", s.count
       FROM (SELECT application_name, count(DISTINCT COALESCE(user_id::text, lower(user_name)))::int AS count
               FROM session_logs
              WHERE date >= $1 AND date <= $2
              GROUP BY application_name) s
       LEFT JOIN applications a ON a.name = s.application_name
      ORDER BY s.count DESC, 2, 1`,
    [since, until],
  );
}

/** Calls per external API entry between `from` and `to`, both included. */
export async function countExternalApiAccess(db: Queryable, from: Date, to: Date): Promise<Array<{ apiEntry: string; count: number }>> {
  return db.query(
    `SELECT api_entry AS "apiEntry", count(*)::int AS count
       FROM external_api_access_logs
      WHERE date >= $1 AND date <= $2
      GROUP BY api_entry
      ORDER BY count DESC, api_entry`,
    [from, to],
  );
}
