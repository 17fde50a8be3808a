import { likePattern, unlockUser, writeAuthenticationLog, type ListQuery } from '@gatehouse/core';
import type { EntityManager } from 'typeorm';
import type { Queryable } from '../../db.js';

/**
 * Locked as the list shows it: the permanent (administrative) lock, or a temporary lockout after
 * failed sign-ins that has not ended yet. Either way the user cannot sign in and the admin can unlock.
 */
const LOCKED_SQL = `(u.locked OR coalesce(u.lockout_end > now(), false))`;

/**
 * What `$search` looks in. It must stay character for character the expression of the
 * `users__search_trgm` GIN index (migration 1764028800000-user-search), or the planner falls back
 * to a sequential scan; users.test.ts checks that the index is used.
 */
const SEARCH_SQL = `(u.user_name || ' ' || u.email || ' ' || coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''))`;

/** The list's sortable API fields → the SQL they sort by (parseListQuery's `sortable`). */
export const USER_LIST_SORTABLE: Record<string, string> = {
  userName: 'u.user_name',
  email: 'u.email',
  firstName: 'u.first_name',
  lastName: 'u.last_name',
  areaName: 'a.name',
  modifiedOn: 'u.modified_on',
  locked: LOCKED_SQL,
};
/** The spec's default sort of the users list. */
export const USER_LIST_DEFAULT_ORDER = 'modifiedOn desc';

const LIST_COLUMNS = `u.id, u.user_name, u.email, u.first_name, u.last_name, u.area_id, a.name AS area_name,
       u.validate_scopes, ${LOCKED_SQL} AS locked, u.draft, u.modified_on, u.language`;

/** The filters of the users list, the caller's scope included. */
export interface UserListFilter {
  /** The raw search term (matched anywhere, pattern characters taken literally); null for none. */
  search: string | null;
  locked?: boolean;
  areaId?: string;
  /** The caller's areas; null for every area. */
  areaIds: string[] | null;
}

/** A row of the users list (the columns of userListSql). */
export interface UserListRow {
  id: string;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  area_id: string;
  area_name: string;
  validate_scopes: boolean;
  locked: boolean;
  draft: boolean;
  modified_on: Date;
  language: string;
}

const SORT_CLAUSE = new RegExp(
  `^\\s*(${[...Object.values(USER_LIST_SORTABLE).map(escapeRegExp), '[ua]\\.[a-z_]+'].join('|')})\\s+(ASC|DESC)\\s*$`,
  'i',
);

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function whereOf(filter: UserListFilter, values: unknown[]): string {
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const conditions: string[] = [];
  if (filter.search) conditions.push(`${SEARCH_SQL} ILIKE ${param(likePattern(filter.search))}`);
  if (filter.locked !== undefined) conditions.push(filter.locked ? LOCKED_SQL : `NOT ${LOCKED_SQL}`);
  if (filter.areaId) conditions.push(`u.area_id = ${param(filter.areaId)}`);
  if (filter.areaIds) conditions.push(`u.area_id = ANY(${param(filter.areaIds)}::uuid[])`);
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}

/**
 * The users list as one SELECT, without paging: the columns of UserListRow (snake_case), filtered
 * and sorted in SQL. `orderBy` is a trusted ORDER BY clause as parseListQuery builds it from
 * USER_LIST_SORTABLE (e.g. `u.modified_on DESC`); anything else is refused, so a caller cannot
 * slip SQL through it. The users id breaks ties, so pages and exports never repeat or skip a row.
 * Shared by `GET /users` and the streaming Excel export.
 */
export function userListSql(filter: UserListFilter, orderBy: string): { text: string; values: unknown[] } {
  if (!SORT_CLAUSE.test(orderBy)) throw new TypeError(`not a users list sort: ${orderBy}`);
  const values: unknown[] = [];
  const where = whereOf(filter, values);
  return {
    text: `SELECT ${LIST_COLUMNS}
             FROM users u JOIN areas a ON a.id = u.area_id
             ${where}
            ORDER BY ${orderBy}, u.id`,
    values,
  };
}

/** One page of the users list and the number of users matching the filter. */
export async function listUsers(db: Queryable, filter: UserListFilter, query: ListQuery): Promise<{ rows: UserListRow[]; count: number }> {
  const base = userListSql(filter, query.orderBy);
  const n = base.values.length;
  // Two statements rather than count(*) OVER (): the page then reads only its rows through the
  // sort's index instead of materialising every match first.
  const rows = await db.query<UserListRow[]>(`${base.text} LIMIT $${n + 1} OFFSET $${n + 2}`, [...base.values, query.top, query.skip]);
  // A short page is the last one: the total is known without counting.
  if (rows.length < query.top && (rows.length > 0 || query.skip === 0)) return { rows, count: query.skip + rows.length };
  const countValues: unknown[] = [];
  const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM users u ${whereOf(filter, countValues)}`, countValues);
  return { rows, count: Number(row!.count) };
}

export interface UserDetailRow extends UserListRow {
  job_title: string | null;
  manager: string | null;
  teams: unknown;
  email_verified: boolean;
  two_factor_enabled: boolean;
  last_login_at: Date | null;
  created_at: Date;
}

/** The user as the detail page shows it; undefined when there is no such user. */
export async function findUserDetail(db: Queryable, id: string): Promise<UserDetailRow | undefined> {
  const rows = await db.query<UserDetailRow[]>(
    `SELECT ${LIST_COLUMNS}, u.job_title, u.manager, u.teams, u.email_verified,
            (u.two_factor_enabled OR u.totp_enabled_at IS NOT NULL) AS two_factor_enabled, u.last_login_at, u.created_at
       FROM users u JOIN areas a ON a.id = u.area_id
      WHERE u.id = $1`,
    [id],
  );
  return rows[0];
}

/** The fields of a user that changes check and record. */
export interface UserStateRow {
  id: string;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  language: string;
  area_id: string;
  validate_scopes: boolean;
  draft: boolean;
  /** The permanent lock only (the column). */
  locked: boolean;
}

/**
 * The user's current state, row-locked until the transaction ends so that two changes to the same
 * user (an edit and a lock) cannot interleave.
 */
export async function findUserForUpdate(db: Queryable, id: string): Promise<UserStateRow | undefined> {
  const rows = await db.query<UserStateRow[]>(
    `SELECT id, user_name, email, first_name, last_name, language, area_id, validate_scopes, draft, locked
       FROM users WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

/** The user without a lock, for reads and for checks done before a transaction. */
export async function findUserState(db: Queryable, id: string): Promise<UserStateRow | undefined> {
  const rows = await db.query<UserStateRow[]>(
    `SELECT id, user_name, email, first_name, last_name, language, area_id, validate_scopes, draft, locked FROM users WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** The user's login name as it is now, for audit rows; null when the user does not exist. */
export async function findUserName(db: Queryable, userId: string): Promise<string | null> {
  const rows = await db.query<Array<{ user_name: string }>>(`SELECT user_name FROM users WHERE id = $1`, [userId]);
  return rows[0]?.user_name ?? null;
}

export async function areaExists(db: Queryable, areaId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(`SELECT 1 FROM areas WHERE id = $1`, [areaId]);
  return rows.length > 0;
}

/**
 * User names and e-mails are unique and looked up case-insensitively, lower-cased as the provider's
 * sign-in lower-cases what is typed (JavaScript's rules, not the database collation's).
 */
export const normalize = (value: string) => value.trim().toLowerCase();

export async function userNameTaken(db: Queryable, userName: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(`SELECT 1 FROM users WHERE normalized_user_name = $1`, [normalize(userName)]);
  return rows.length > 0;
}

export interface NewUserRow {
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  areaId: string;
  language: string;
  validateScopes: boolean;
  passwordHash: string | null;
  createdById: string | null;
}

/**
 * Inserts a user and answers its id. `password_changed_at` stays null: a password an administrator
 * set (or generated) must be replaced at the first sign-in (core's isPasswordExpired).
 */
export async function insertUser(db: Queryable, user: NewUserRow): Promise<string> {
  const rows = await db.query<Array<{ id: string }>>(
    `INSERT INTO users (user_name, normalized_user_name, email, normalized_email, first_name, last_name, area_id,
                        language, validate_scopes, password_hash, modified_by_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING id`,
    [
      user.userName,
      normalize(user.userName),
      user.email,
      normalize(user.email),
      user.firstName,
      user.lastName,
      user.areaId,
      user.language,
      user.validateScopes,
      user.passwordHash,
      user.createdById,
    ],
  );
  return rows[0]!.id;
}

export interface UserChanges {
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  areaId: string;
  validateScopes: boolean;
}

/** Applies an edit. A new e-mail address is not verified yet, whatever the previous one was. */
export async function updateUser(db: Queryable, id: string, changes: UserChanges, modifiedById: string): Promise<void> {
  await db.query(
    `UPDATE users SET email_verified = email_verified AND normalized_email = $3,
                      email = $2, normalized_email = $3, first_name = $4, last_name = $5, language = $6, area_id = $7,
                      validate_scopes = $8, modified_by_id = $9, modified_on = now()
      WHERE id = $1`,
    [id, changes.email, normalize(changes.email), changes.firstName, changes.lastName, changes.language, changes.areaId, changes.validateScopes, modifiedById],
  );
}

/**
 * Deletes the user. Memberships (tenants and groups), role grants, tokens, personal access tokens,
 * password history and notifications go with it (ON DELETE CASCADE); rows that only name the user
 * as an author keep a null instead.
 */
export async function deleteUser(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM users WHERE id = $1`, [id]);
}

/**
 * Ends everything the provider holds for the user (sessions, grants, codes, access and refresh
 * tokens all carry the account id), as the provider's own revokeUserSessions does; the caller
 * broadcasts `oidc.invalidated` once the transaction has committed, for the nodes' caches.
 */
export async function deleteProviderSessions(db: Queryable, userId: string): Promise<number> {
  const result = await db.query<unknown>(`DELETE FROM oidc_model_instances WHERE payload->>'accountId' = $1`, [userId]);
  return Array.isArray(result) ? Number(result[1] ?? 0) : 0;
}

/**
 * Marks the password as one the user has not chosen: a null `password_changed_at` makes the next
 * sign-in ask for a new one (core's isPasswordExpired), as for a user an administrator created.
 */
export async function markPasswordTemporary(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE users SET password_changed_at = NULL WHERE id = $1`, [id]);
}

/** The permanent administrative lock: only an administrator lifts it. */
export async function lockUser(db: Queryable, id: string, modifiedById: string): Promise<void> {
  await db.query(`UPDATE users SET locked = true, modified_by_id = $2, modified_on = now() WHERE id = $1`, [id, modifiedById]);
}

/** Lifts every lock and clears the failure counters (core's unlockUser), recording who did it. */
export async function unlock(db: EntityManager, id: string, modifiedById: string): Promise<void> {
  await unlockUser(db, id);
  await db.query(`UPDATE users SET modified_by_id = $2 WHERE id = $1`, [id, modifiedById]);
}

/** The Authentication Logs page's row for an unlock (result Unlocked). */
export async function logUnlocked(db: EntityManager, user: { id: string; userName: string }, reason: string): Promise<void> {
  await writeAuthenticationLog(db, { userId: user.id, userName: user.userName, result: 'Unlocked', reason, provider: 'Local' });
}

export interface UserGroupRow {
  group_id: string;
  group_name: string;
  permission: string;
  area_name: string;
}

export async function findUserGroups(db: Queryable, userId: string): Promise<UserGroupRow[]> {
  return db.query<UserGroupRow[]>(
    `SELECT g.id AS group_id, g.name AS group_name, gm.permission, a.name AS area_name
       FROM group_members gm
       JOIN groups g ON g.id = gm.group_id
       JOIN areas a ON a.id = g.area_id
      WHERE gm.user_id = $1
      ORDER BY g.name, g.id`,
    [userId],
  );
}

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

export interface ApplicationRow {
  id: string;
  name: string;
  display_name: string;
}

/** Every application (or one), by display name. */
export async function findApplications(db: Queryable, applicationId: string | null = null): Promise<ApplicationRow[]> {
  return db.query<ApplicationRow[]>(
    `SELECT id, name, display_name FROM applications WHERE $1::varchar IS NULL OR id = $1 ORDER BY display_name, id`,
    [applicationId],
  );
}

export interface RoleRow {
  id: string;
  application_id: string;
  name: string;
  description: string | null;
  by_hierarchy: boolean;
}

/** The area of each of these tenants (null for a tenant without one); a tenant that does not exist is left out. */
export async function findTenantAreas(db: Queryable, tenantIds: string[]): Promise<Array<string | null>> {
  const rows = await db.query<Array<{ area_id: string | null }>>(`SELECT area_id FROM tenants WHERE id = ANY($1::uuid[])`, [tenantIds]);
  return rows.map((row) => row.area_id);
}

/** The roles of every application (or of one), by name. */
export async function findRoles(db: Queryable, applicationId: string | null = null): Promise<RoleRow[]> {
  return db.query<RoleRow[]>(
    `SELECT id, application_id, name, description, by_hierarchy FROM roles
      WHERE $1::varchar IS NULL OR application_id = $1
      ORDER BY name, id`,
    [applicationId],
  );
}

export async function findTenant(db: Queryable, tenantId: string): Promise<{ id: string; title: string } | undefined> {
  const rows = await db.query<Array<{ id: string; title: string }>>(`SELECT id, title FROM tenants WHERE id = $1`, [tenantId]);
  return rows[0];
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
