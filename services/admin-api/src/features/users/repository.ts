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

/** The parameters of a statement being built: `param(value)` adds one and answers its `$n`. */
function parameters(values: unknown[] = []) {
  return {
    values,
    param(value: unknown): string {
      values.push(value);
      return `$${values.length}`;
    },
  };
}
type Parameters = ReturnType<typeof parameters>;

/** The filter's conditions; without `withSearch`, all but the search (a walk checks it on the rows it reads). */
function conditionsOf(filter: UserListFilter, p: Parameters, withSearch = true): string[] {
  const conditions: string[] = [];
  if (filter.search && withSearch) conditions.push(`${SEARCH_SQL} ILIKE ${p.param(likePattern(filter.search))}`);
  if (filter.locked !== undefined) conditions.push(filter.locked ? LOCKED_SQL : `NOT ${LOCKED_SQL}`);
  if (filter.areaId) conditions.push(`u.area_id = ${p.param(filter.areaId)}`);
  if (filter.areaIds) conditions.push(`u.area_id = ANY(${p.param(filter.areaIds)}::uuid[])`);
  return conditions;
}

const whereClause = (conditions: string[]) => (conditions.length ? `WHERE ${conditions.join(' AND ')}` : '');

function whereOf(filter: UserListFilter, values: unknown[]): string {
  return whereClause(conditionsOf(filter, parameters(values)));
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

/** The planner's estimate of the users matching the filter: the cost of a plan, not of a scan. */
async function plannedMatches(db: Queryable, filter: UserListFilter): Promise<number> {
  const values: unknown[] = [];
  const where = whereOf(filter, values);
  const [plan] = await db.query<Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM users u ${where}`, values);
  return plan!['QUERY PLAN'][0]!.Plan['Plan Rows'];
}

/**
 * The number of users matching the filter. The planner's estimate comes first (it costs a plan, not
 * a scan): above the exact limit it is the answer. Below, the matches are counted, one past the
 * limit at most; more than the limit means the planner underestimated, and the total is then known
 * only to exceed it.
 */
export async function countUsers(db: Queryable, filter: UserListFilter): Promise<{ count: number; estimated: boolean }> {
  const planned = await plannedMatches(db, filter);
  const limit = exactLimitOf(filter);
  if (planned > limit) return { count: roughly(planned), estimated: true };
  const values: unknown[] = [];
  const where = whereOf(filter, values);
  const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM (SELECT 1 FROM users u ${where} LIMIT ${limit + 1}) matches`, values);
  return countedUpTo(Number(row!.count), limit);
}

/** A count made one past `limit` at most: exact up to it, beyond it only known to exceed it. */
function countedUpTo(counted: number, limit: number): { count: number; estimated: boolean } {
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

/** How a cursor holds each sort field's value (see ListCursor), and whether the field may be NULL. */
export const SORT_KEYS: Readonly<Record<UserSortField, { type: 'text' | 'timestamptz' | 'boolean'; nullable: boolean }>> = {
  userName: { type: 'text', nullable: false },
  email: { type: 'text', nullable: false },
  firstName: { type: 'text', nullable: true },
  lastName: { type: 'text', nullable: true },
  areaName: { type: 'text', nullable: false },
  modifiedOn: { type: 'timestamptz', nullable: false },
  locked: { type: 'boolean', nullable: false },
};

/**
 * Where a page of the list ended: its last row's value of the sort field (a date as UTC text to the
 * microsecond, which a JS Date would round to the millisecond) and its id. The next page is the rows
 * after it in the list's order, whatever was added or removed before it meanwhile.
 */
export interface ListCursor {
  key: string | boolean | null;
  id: string;
}

/** The list's sort as the page statements use it: the field, the SQL it sorts by, the direction. */
export interface UserListSort {
  field: UserSortField;
  sql: string;
  descending: boolean;
}

const SORT_FIELDS = Object.keys(USER_SORT) as UserSortField[];

/** The sort of an ORDER BY clause as toListQuery builds it from USER_SORT; anything else is refused. */
export function sortOf(orderBy: string): UserListSort {
  const match = SORT_CLAUSE.exec(orderBy);
  const field = match && SORT_FIELDS.find((f) => USER_SORT[f] === match[1]);
  if (!field) throw new TypeError(`not a users list sort: ${orderBy}`);
  return { field, sql: USER_SORT[field], descending: match![2]!.toUpperCase() === 'DESC' };
}

const direction = (sort: UserListSort) => (sort.descending ? 'DESC' : 'ASC');
const orderOf = (sort: UserListSort, key = sort.sql, id = 'u.id') => `${key} ${direction(sort)}, ${id}`;
/** The areas join a sort by area name needs before the page is chosen (the columns join it anyway, after). */
const areaJoinOf = (sort: UserListSort) => (sort.sql.startsWith('a.') ? 'JOIN areas a ON a.id = u.area_id' : '');

/**
 * The rows after `after` in the list's order: beyond its value of the sort field, or equal and of a
 * greater id; NULLs (first and last names only) where PostgreSQL puts them by default, last
 * ascending and first descending. `key` and `id` are the SQL of the sort value and of the id where
 * the condition applies. The redundant range on the sort value lets an index start at the cursor
 * rather than filter its way there.
 */
function beyond(sort: UserListSort, after: ListCursor, p: Parameters, key = sort.sql, id = 'u.id'): string {
  const { type, nullable } = SORT_KEYS[sort.field];
  const afterId = `${p.param(after.id)}::uuid`;
  if (after.key === null) return sort.descending ? `((${key} IS NULL AND ${id} > ${afterId}) OR ${key} IS NOT NULL)` : `(${key} IS NULL AND ${id} > ${afterId})`;
  const value = type === 'timestamptz' ? `(${p.param(after.key)}::timestamp AT TIME ZONE 'UTC')` : `${p.param(after.key)}::${type}`;
  const past = `${key} ${sort.descending ? '<' : '>'} ${value} OR (${key} = ${value} AND ${id} > ${afterId})`;
  if (nullable && !sort.descending) return `(${past} OR ${key} IS NULL)`;
  return `(${key} ${sort.descending ? '<=' : '>='} ${value} AND (${past}))`;
}

/** A row of a page: the list's columns and the cursor value of its sort field. */
type PageRow = UserListRow & { sort_key: string | boolean | null };

/** The list's columns, and each row's value of the sort field as a cursor holds it. */
function pageColumns(sort: UserListSort): string {
  const key = SORT_KEYS[sort.field].type === 'timestamptz' ? `to_char(${sort.sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')` : sort.sql;
  return `${LIST_COLUMNS}, ${key} AS sort_key`;
}

/** The page's rows whole, in the list's order, for the users `ids` (a SELECT of their ids) names. */
function withColumns(ids: string, sort: UserListSort): string {
  return `SELECT ${pageColumns(sort)}
            FROM (${ids}) p JOIN users u ON u.id = p.id JOIN areas a ON a.id = u.area_id
           ORDER BY ${orderOf(sort)}`;
}

/** Where a page starts (`skip` rows after the start of the list or after the cursor) and how many rows it reads. */
export interface PageWindow {
  after: ListCursor | null;
  skip: number;
  rows: number;
}

/** From this `skip` on, a page's ids are found first (a deferred join, see pageByPlan). */
const DEFERRED_FROM = 100;

/**
 * A page by the planner's own plan. A deep page (from DEFERRED_FROM) and a search's page are a
 * "deferred join": the page's ids first, which an index serving the filter and the sort gives alone
 * (a deep `skip` then passes over index entries, never over whole rows and their areas; a search's
 * matches are not joined to their areas, which the planner, misled by its estimate, could do once
 * per match), then the columns of those rows only. Nearer the start, one plain statement plans
 * faster and reads as little.
 */
export async function pageByPlan(db: Queryable, filter: UserListFilter, sort: UserListSort, window: PageWindow): Promise<PageRow[]> {
  const p = parameters();
  const conditions = conditionsOf(filter, p);
  if (window.after) conditions.push(beyond(sort, window.after, p));
  const paging = `ORDER BY ${orderOf(sort)} LIMIT ${p.param(window.rows)} OFFSET ${p.param(window.skip)}`;
  if (window.skip >= DEFERRED_FROM || filter.search) {
    return db.query<PageRow[]>(withColumns(`SELECT u.id FROM users u ${areaJoinOf(sort)} ${whereClause(conditions)} ${paging}`, sort), p.values);
  }
  return db.query<PageRow[]>(`SELECT ${pageColumns(sort)} FROM users u JOIN areas a ON a.id = u.area_id ${whereClause(conditions)} ${paging}`, p.values);
}

/**
 * A search's page taken from all its matches, when they are few: they are read once (through the
 * trigram index), counted, and sorted for the page, in one statement. One past the exact limit at
 * most are read: `matched` above the limit says there are more, and then no page is answered.
 */
export async function pageOfFewMatches(db: Queryable, filter: UserListFilter, sort: UserListSort, window: PageWindow): Promise<{ matched: number; rows: PageRow[] }> {
  const p = parameters();
  const where = whereClause(conditionsOf(filter, p));
  const limit = p.param(EXACT_COUNT_LIMIT);
  const pageConditions = [`c.matched <= ${limit}`];
  if (window.after) pageConditions.push(beyond(sort, window.after, p, 'm.sort_key', 'm.id'));
  const rows = await db.query<Array<PageRow & { matched: number }>>(
    `WITH matches AS MATERIALIZED (
            SELECT u.id, ${sort.sql} AS sort_key FROM users u ${areaJoinOf(sort)} ${where} LIMIT ${p.param(EXACT_COUNT_LIMIT + 1)}
          ),
          counted AS (SELECT count(*)::int AS matched FROM matches),
          page AS (
            SELECT m.id FROM matches m, counted c
             WHERE ${pageConditions.join(' AND ')}
             ORDER BY ${orderOf(sort, 'm.sort_key', 'm.id')} LIMIT ${p.param(window.rows)} OFFSET ${p.param(window.skip)}
          )
     SELECT c.matched, ${pageColumns(sort)}
       FROM counted c LEFT JOIN (page p JOIN users u ON u.id = p.id JOIN areas a ON a.id = u.area_id) ON true
      ORDER BY ${orderOf(sort)}`,
    p.values,
  );
  return { matched: rows[0]!.matched, rows: rows.filter((row) => row.id !== null).map(({ matched: _, ...row }) => row) };
}

/**
 * Users read in the list's order per row a search page wants, at most: a walk of the sort's index
 * pays off while at least one user in this many matches (a search for a common name or a mail
 * domain); rarer matches are cheaper read all at once through the trigram index and sorted.
 */
const WALK_ROWS_PER_MATCH = 200;
/** No walk reads more users than this: a deeper page of a search is left to the planner. */
const WALK_LIMIT = 20_000;
/** The sorts an index serves in the list's order (migration 1765800800000-user-list-indexes), and within an area. */
const WALKABLE: ReadonlySet<UserSortField> = new Set(['modifiedOn', 'userName', 'email']);
const WALKABLE_IN_AREA: ReadonlySet<UserSortField> = new Set(['modifiedOn']);

/**
 * A search's page by walking the sort's index and checking each user against the search, reading
 * at most WALK_ROWS_PER_MATCH users per row wanted: the plan for a search with many matches, where
 * the first page is found after a few hundred users at most. The planner chooses it only from its
 * estimate of the matches, which for a word inside names is often wrong a hundredfold either way
 * (its statistics sample whole values, and a word is spread over them); here it is tried whenever
 * the matches are counted or estimated to be many, and its bound caps the cost of a wrong estimate.
 * Null when the walk did not fill the page, or cannot apply: the caller then reads the page by the
 * planner's plan.
 */
export async function pageByWalk(db: Queryable, filter: UserListFilter, sort: UserListSort, window: PageWindow): Promise<PageRow[] | null> {
  const reads = (window.skip + window.rows) * WALK_ROWS_PER_MATCH;
  // Only where one index serves the other filters too (none, or one area) in the list's order: a
  // lock state or several areas would be checked on every user walked, however few of them pass.
  const walkable = filter.areaId ? WALKABLE_IN_AREA : filter.areaIds ? null : WALKABLE;
  if (!filter.search || filter.locked !== undefined || !walkable?.has(sort.field) || reads > WALK_LIMIT) return null;
  const p = parameters();
  const conditions = conditionsOf(filter, p, false);
  if (window.after) conditions.push(beyond(sort, window.after, p));
  // The walk reads whole rows anyway: it keeps them, under the users' own name, for the page's
  // columns. The search is checked outside the walk, so that the walk's bound counts users read,
  // not users found.
  const walked = `SELECT u.*, ${SEARCH_SQL} AS searched FROM users u ${whereClause(conditions)} ORDER BY ${orderOf(sort)} LIMIT ${p.param(reads)}`;
  const rows = await db.query<PageRow[]>(
    `SELECT ${pageColumns(sort)}
       FROM (${walked}) u JOIN areas a ON a.id = u.area_id
      WHERE u.searched ILIKE ${p.param(likePattern(filter.search))}
      ORDER BY ${orderOf(sort)} LIMIT ${p.param(window.rows)} OFFSET ${p.param(window.skip)}`,
    p.values,
  );
  return rows.length === window.rows ? rows : null;
}

/**
 * A search's page and total. The planner's estimate of the matches decides how: when it says few
 * (at most the exact limit), the matches are read once for both the total and the page; when they
 * turn out many anyway, or the estimate says many, the page comes from a walk of the sort's index
 * (pageByWalk), else from the planner's plan. The total follows countUsers' rule.
 */
async function searchPage(db: Queryable, filter: UserListFilter, sort: UserListSort, window: PageWindow) {
  const planned = await plannedMatches(db, filter);
  let counted: { count: number; estimated: boolean };
  if (planned <= EXACT_COUNT_LIMIT) {
    const few = await pageOfFewMatches(db, filter, sort, window);
    counted = countedUpTo(few.matched, EXACT_COUNT_LIMIT);
    if (!counted.estimated) return { rows: few.rows, counted };
  } else {
    counted = { count: roughly(planned), estimated: true };
  }
  const rows = (await pageByWalk(db, filter, sort, window)) ?? (await pageByPlan(db, filter, sort, window));
  return { rows, counted };
}

/** A page of the users list, the number of users matching the filter (see countUsers), and where the next page starts. */
export interface UserListPage {
  rows: UserListRow[];
  count: number;
  estimated: boolean;
  /** Null on the last page. */
  next: ListCursor | null;
}

/**
 * One page of the users list: `query.skip` rows after the start of the list, or after `after` (a
 * cursor a previous page answered), and the number of users matching the filter.
 */
export async function listUsers(db: Queryable, filter: UserListFilter, query: ListQuery, after: ListCursor | null = null): Promise<UserListPage> {
  const sort = sortOf(query.orderBy);
  // One row past the page: whether another page follows.
  const window = { after, skip: query.skip, rows: query.top + 1 };
  // The page and the count are two statements rather than count(*) OVER (): the page then reads
  // only its rows through the sort's index instead of materialising every match first.
  const { rows, counted } = filter.search ? await searchPage(db, filter, sort, window) : { rows: await pageByPlan(db, filter, sort, window), counted: null };
  const page = rows.slice(0, query.top);
  const last = page.at(-1);
  const next = rows.length > query.top && last ? { key: last.sort_key, id: last.id } : null;
  const items = page.map(({ sort_key: _, ...row }) => row);
  // A short page is the last one: the total is known without counting. Not after a cursor, which
  // does not say how many rows came before it.
  if (!after && page.length < query.top && (page.length > 0 || query.skip === 0)) return { rows: items, count: query.skip + page.length, estimated: false, next };
  const { count, estimated } = counted ?? (await countUsers(db, filter));
  // Past the estimate's end, the total is at least what was read.
  return { rows: items, count: !after && page.length ? Math.max(count, query.skip + page.length) : count, estimated, next };
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

