import type { Queryable } from '../../db.js';

/**
 * Small reads about users, tenants, areas and roles that several directory features (users, groups,
 * tenants) make while checking a change or writing its audit row. Each takes the connection or the
 * transaction it runs in.
 */

/** The user's login name as it is now, for audit rows; null when the user does not exist. */
export async function findUserName(db: Queryable, userId: string): Promise<string | null> {
  const rows = await db.query<Array<{ user_name: string }>>(`SELECT user_name FROM users WHERE id = $1`, [userId]);
  return rows[0]?.user_name ?? null;
}

export interface TenantRecord {
  id: string;
  title: string;
  /** The tenant's area; null for a tenant without one. */
  areaId: string | null;
}

/** The tenant's title and area; undefined when there is no such tenant. */
export async function findTenant(db: Queryable, tenantId: string): Promise<TenantRecord | undefined> {
  const rows = await db.query<Array<{ id: string; title: string; area_id: string | null }>>(`SELECT id, title, area_id FROM tenants WHERE id = $1`, [
    tenantId,
  ]);
  const row = rows[0];
  return row && { id: row.id, title: row.title, areaId: row.area_id };
}

export interface AreaRecord {
  id: string;
  name: string;
}

/** The area's name; undefined when there is no such area. */
export async function findArea(db: Queryable, areaId: string): Promise<AreaRecord | undefined> {
  const rows = await db.query<AreaRecord[]>(`SELECT id, name FROM areas WHERE id = $1`, [areaId]);
  return rows[0];
}

export async function areaExists(db: Queryable, areaId: string): Promise<boolean> {
  return (await findArea(db, areaId)) !== undefined;
}

export interface RoleRecord {
  id: string;
  applicationId: string;
  name: string;
  description: string | null;
  /** Granted through the tenant hierarchy only (the role's own flag). */
  byHierarchy: boolean;
}

/** Which roles findRoles reads: those of one application, those with these ids, or (neither) every role. */
export interface RoleFilter {
  applicationId?: string | null;
  ids?: string[];
}

/** The roles the filter selects, by name. */
export async function findRoles(db: Queryable, filter: RoleFilter = {}): Promise<RoleRecord[]> {
  const rows = await db.query<Array<{ id: string; application_id: string; name: string; description: string | null; by_hierarchy: boolean }>>(
    `SELECT id, application_id, name, description, by_hierarchy FROM roles
      WHERE ($1::varchar IS NULL OR application_id = $1) AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[]))
      ORDER BY name, id`,
    [filter.applicationId ?? null, filter.ids ?? null],
  );
  return rows.map((row) => ({
    id: row.id,
    applicationId: row.application_id,
    name: row.name,
    description: row.description,
    byHierarchy: row.by_hierarchy,
  }));
}
