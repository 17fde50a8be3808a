import { GLOBAL_TENANT_ID } from '@gatehouse/core';
import type { Queryable } from '../../db.js';

/**
 * Small reads about users, tenants, areas, applications and tokens that several features make while
 * checking a change, importing a file or writing its audit row (no feature reads another's
 * repository). Each takes the connection or the
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

/**
 * How deep a walk of the tree may go. Moves never make a cycle (they are serialised and checked),
 * so this only keeps a damaged table from looping a query forever.
 */
export const MAX_DEPTH = 1000;

/**
 * User names and e-mails are unique and looked up case-insensitively, lower-cased as the provider's
 * sign-in lower-cases what is typed (JavaScript's rules, not the database collation's).
 */
export const normalize = (value: string) => value.trim().toLowerCase();

export interface LoginMatch {
  id: string;
  userName: string;
  normalizedUserName: string;
  normalizedEmail: string;
  areaId: string;
}

/** Every user whose user name or e-mail is one of these (lower-cased) logins, in one query. */
export async function findUsersByLogin(db: Queryable, logins: string[]): Promise<LoginMatch[]> {
  if (!logins.length) return [];
  const rows = await db.query<Array<{ id: string; user_name: string; normalized_user_name: string; normalized_email: string; area_id: string }>>(
    `SELECT id, user_name, normalized_user_name, normalized_email, area_id
       FROM users
      WHERE normalized_user_name = ANY($1::text[]) OR normalized_email = ANY($1::text[])`,
    [logins],
  );
  return rows.map((r) => ({
    id: r.id,
    userName: r.user_name,
    normalizedUserName: r.normalized_user_name,
    normalizedEmail: r.normalized_email,
    areaId: r.area_id,
  }));
}

/** Whether a client tenant (any tenant but the Global one) exists. */
export async function clientTenantExists(db: Queryable, tenantId: string): Promise<{ id: string; title: string } | undefined> {
  const rows = await db.query<Array<{ id: string; title: string }>>(`SELECT id, title FROM tenants WHERE id = $1 AND id <> $2`, [tenantId, GLOBAL_TENANT_ID]);
  return rows[0];
}

/** The areas a client user may be put in: all but the system ones, by name. */
export async function listClientAreas(db: Queryable): Promise<Array<{ id: string; name: string; default: boolean; system: boolean }>> {
  const rows = await db.query<Array<{ id: string; name: string; is_default: boolean }>>(`SELECT id, name, is_default FROM areas WHERE NOT is_system ORDER BY name`);
  return rows.map((row) => ({ id: row.id, name: row.name, default: row.is_default, system: false }));
}

/** An application a row may name (by id, name or display name), with its roles. */
export interface ApplicationMatch {
  id: string;
  name: string;
  displayName: string;
  roles: RoleMatch[];
}

export interface RoleMatch {
  id: string;
  name: string;
  byHierarchy: boolean;
}

/** The applications whose id, name or display name (any case) is one of `keys` (lower-cased), each with its roles. */
export async function findApplicationsByKey(db: Queryable, keys: string[]): Promise<ApplicationMatch[]> {
  if (!keys.length) return [];
  const rows = await db.query<Array<{ id: string; name: string; display_name: string; roles: RoleMatch[] }>>(
    `SELECT app.id, app.name, app.display_name,
            COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'byHierarchy', r.by_hierarchy) ORDER BY r.name, r.id)
                        FROM roles r WHERE r.application_id = app.id), '[]'::json) AS roles
       FROM applications app
      WHERE lower(app.id) = ANY($1::text[]) OR lower(app.name) = ANY($1::text[]) OR lower(app.display_name) = ANY($1::text[])`,
    [keys],
  );
  return rows.map((r) => ({ id: r.id, name: r.name, displayName: r.display_name, roles: r.roles }));
}

/** Whose a token value is and when it expires, found by its hash; nothing is written (the inspector's look). */
export async function findPatOwnerByHash(db: Queryable, hash: string): Promise<{ userId: string; expiresAt: Date | null } | null> {
  const [row] = await db.query<Array<{ user_id: string; expires_at: Date | string | null }>>(
    'SELECT user_id, expires_at FROM personal_access_tokens WHERE token_hash = $1',
    [hash],
  );
  return row ? { userId: row.user_id, expiresAt: row.expires_at === null ? null : new Date(row.expires_at) } : null;
}
