import type { GroupPermission, UserSortField } from '@gatehouse/contracts';
import { likePattern, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { normalize } from '../directory/lookups.js';

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

/** The list's sortable fields → the SQL they sort by (toListQuery's columns). */
export const USER_SORT: Readonly<Record<UserSortField, string>> = {
  userName: 'u.user_name',
  email: 'u.email',
  firstName: 'u.first_name',
  lastName: 'u.last_name',
  areaName: 'a.name',
  modifiedOn: 'u.modified_on',
  locked: LOCKED_SQL,
};

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
  `^\\s*(${[...Object.values(USER_SORT).map(escapeRegExp), '[ua]\\.[a-z_]+'].join('|')})\\s+(ASC|DESC)\\s*$`,
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
 * and sorted in SQL. `orderBy` is a trusted ORDER BY clause as toListQuery builds it from
 * USER_SORT (e.g. `u.modified_on DESC`); anything else is refused, so a caller cannot
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

/**
 * Up to this many matches of a search the list's total is counted exactly; beyond it, counting
 * would recheck every match (a search for "mar" in 100,000 users rechecks some 12,000 rows, about
 * 80 ms, for the total alone), so the total is the planner's estimate instead, and the answer says
 * so. Without a search the rows are counted through indexes, cheaply enough ten times further.
 */
export const EXACT_COUNT_LIMIT = 1000;
const exactLimitOf = (filter: UserListFilter) => (filter.search ? EXACT_COUNT_LIMIT : 10 * EXACT_COUNT_LIMIT);

/**
 * The number of users matching the filter. The planner's estimate comes first (it costs a plan, not
 * a scan): above the exact limit it is the answer. Below, the matches are counted, one past the
 * limit at most; more than the limit means the planner underestimated, and the total is then known
 * only to exceed it.
 */
export async function countUsers(db: Queryable, filter: UserListFilter): Promise<{ count: number; estimated: boolean }> {
  const values: unknown[] = [];
  const where = whereOf(filter, values);
  const [plan] = await db.query<Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM users u ${where}`, values);
  const planned = plan!['QUERY PLAN'][0]!.Plan['Plan Rows'];
  const limit = exactLimitOf(filter);
  if (planned > limit) return { count: roughly(planned), estimated: true };
  const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM (SELECT 1 FROM users u ${where} LIMIT ${limit + 1}) matches`, values);
  const counted = Number(row!.count);
  return counted <= limit ? { count: counted, estimated: false } : { count: roughly(counted), estimated: true };
}

/**
 * An estimate to two significant digits, rounded up (11,680 → 12,000; 1,001 → 1,100): it claims no
 * more precision than it has, and never falls back to the exact limit it is known to exceed.
 */
function roughly(estimate: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, estimate))) - 1);
  return Math.ceil(estimate / unit) * unit;
}

/** One page of the users list and the number of users matching the filter (see countUsers). */
export async function listUsers(db: Queryable, filter: UserListFilter, query: ListQuery): Promise<{ rows: UserListRow[]; count: number; estimated: boolean }> {
  const base = userListSql(filter, query.orderBy);
  const n = base.values.length;
  // Two statements rather than count(*) OVER (): the page then reads only its rows through the
  // sort's index instead of materialising every match first.
  const rows = await db.query<UserListRow[]>(`${base.text} LIMIT $${n + 1} OFFSET $${n + 2}`, [...base.values, query.top, query.skip]);
  // A short page is the last one: the total is known without counting.
  if (rows.length < query.top && (rows.length > 0 || query.skip === 0)) return { rows, count: query.skip + rows.length, estimated: false };
  const { count, estimated } = await countUsers(db, filter);
  // Past the estimate's end, the total is at least what was read.
  return { rows, count: rows.length ? Math.max(count, query.skip + rows.length) : count, estimated };
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

export interface UserGroupRow {
  group_id: string;
  group_name: string;
  permission: GroupPermission;
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

