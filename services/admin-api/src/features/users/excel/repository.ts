import type { Sort, UserSortField } from '@gatehouse/contracts';
import { sqlClient, type AppContext } from '@gatehouse/core';
import type { Queryable } from '../../../db.js';
import { userListSql, type UserListFilter, type UserListRow } from '../repository.js';

export interface AreaRow {
  id: string;
  name: string;
}

/** The areas a caller may put users into (null: every area), by name. */
export async function areasInScope(db: Queryable, areaIds: string[] | null): Promise<AreaRow[]> {
  return db.query<AreaRow[]>(`SELECT id, name FROM areas WHERE $1::uuid[] IS NULL OR id = ANY($1::uuid[]) ORDER BY name, id`, [areaIds]);
}

/**
 * Which of `userNames` already belong to a user, compared as the unique index compares them
 * (`normalized_user_name` is `lower(user_name)`, computed by PostgreSQL as insertUser does).
 * Answers the names as given.
 */
export async function existingUserNames(db: Queryable, userNames: string[]): Promise<Set<string>> {
  if (userNames.length === 0) return new Set();
  const rows = await db.query<Array<{ name: string }>>(
    `SELECT n.name FROM unnest($1::text[]) AS n(name)
      WHERE EXISTS (SELECT 1 FROM users u WHERE u.normalized_user_name = lower(n.name))`,
    [userNames],
  );
  return new Set(rows.map((row) => row.name));
}

/**
 * Which of `userNames` (as given) name a user `actorId` created since `since`, as their CreateUser
 * system log rows say (written with the user, in its transaction).
 */
export async function userNamesCreatedBy(db: Queryable, actorId: string, since: Date, userNames: string[]): Promise<Set<string>> {
  const rows = await db.query<Array<{ name: string }>>(
    `SELECT metadata->>'targetUserName' AS name FROM system_logs
      WHERE operation = 'CreateUser' AND date >= $2 AND user_id = $1 AND metadata->>'targetUserName' = ANY($3::text[])`,
    [actorId, since, userNames],
  );
  return new Set(rows.map((row) => row.name));
}

/**
 * The user-name changes a job has applied (its ChangeUserName system log rows, written with each
 * change), by spreadsheet row, with the renamed user.
 */
export async function renamesOfJob(db: Queryable, jobId: string, since: Date): Promise<Map<number, string>> {
  const rows = await db.query<Array<{ row: number; user_id: string }>>(
    `SELECT (metadata->>'row')::int AS row, metadata->>'targetUserId' AS user_id FROM system_logs
      WHERE operation = 'ChangeUserName' AND date >= $2 AND metadata->>'jobId' = $1`,
    [jobId, since],
  );
  return new Map(rows.map((r) => [r.row, r.user_id]));
}

/** A user as the user-name change reads it. */
export interface RenameTarget {
  id: string;
  user_name: string;
  email: string;
}

/** The user whose user name is `userName` (any case), row-locked until the transaction ends. */
export async function findUserByNameForUpdate(db: Queryable, userName: string): Promise<RenameTarget | undefined> {
  const rows = await db.query<RenameTarget[]>(
    `SELECT id, user_name, email FROM users WHERE normalized_user_name = lower($1) FOR UPDATE`,
    [userName],
  );
  return rows[0];
}

/** Whether another user than `exceptId` holds the user name `userName` (any case). */
export async function userNameHeldByOther(db: Queryable, userName: string, exceptId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(`SELECT 1 FROM users WHERE normalized_user_name = lower($1) AND id <> $2`, [userName, exceptId]);
  return rows.length > 0;
}

/** Renames the user and sets their e-mail, keeping the normalized columns in step. */
export async function renameUser(db: Queryable, id: string, userName: string, email: string, modifiedById: string): Promise<void> {
  await db.query(
    // Typed parameters: used both as a column value and in lower(), PostgreSQL cannot infer one type.
    `UPDATE users SET user_name = $2::text, normalized_user_name = lower($2::text), email = $3::text, normalized_email = lower($3::text),
                      modified_by_id = $4, modified_on = now()
      WHERE id = $1`,
    [id, userName, email, modifiedById],
  );
}

/** The sort of the users list: a sortable field and its direction. */
export type UserListSort = Sort<UserSortField>;

/** A row of the users list query, with the key the export pages by (see keysetSql). */
export type ExportRow = UserListRow & { export_key: string | boolean | null };

/** How the export pages through a sort field of the list: the output column of userListSql. */
interface SortKey {
  column: string;
  type: 'text' | 'timestamptz' | 'boolean';
  nullable: boolean;
}

/** Every sortable field of the users list (USER_SORT), by its API name. */
const SORT_KEYS: Record<UserSortField, SortKey> = {
  userName: { column: 'user_name', type: 'text', nullable: false },
  email: { column: 'email', type: 'text', nullable: false },
  firstName: { column: 'first_name', type: 'text', nullable: true },
  lastName: { column: 'last_name', type: 'text', nullable: true },
  areaName: { column: 'area_name', type: 'text', nullable: false },
  modifiedOn: { column: 'modified_on', type: 'timestamptz', nullable: false },
  locked: { column: 'locked', type: 'boolean', nullable: false },
};

/** Where the previous page ended: its last row's sort key (null for a NULL) and id. */
export interface Cursor {
  key: string | boolean | null;
  id: string;
}

/**
 * The page of the list query after `after`, by keyset: rows beyond the last one read in the list's
 * own order (the sort field, NULLs where PostgreSQL puts them by default, then the id ascending,
 * as userListSql sorts). Unlike OFFSET, a page costs the same however deep the export is, and
 * unlike a server-side cursor it holds no transaction open while a slow client downloads, which the
 * embedded PGlite (one transaction at a time for every connection) could not afford.
 *
 * The outer ORDER BY repeats the inner one on the same columns, so the planner sorts once; the
 * redundant range condition lets an index on the sort column start at the cursor. Timestamps
 * travel as UTC text with microseconds: a JS Date would round them to milliseconds and skip or
 * repeat rows that differ by less.
 */
export function keysetSql(base: { text: string; values: unknown[] }, sort: UserListSort, after: Cursor | null, limit: number) {
  const key = SORT_KEYS[sort.field];
  if (!key) throw new TypeError(`not a users list sort field: ${sort.field}`);
  const descending = sort.direction === 'desc';
  const col = `q.${key.column}`;
  const values = [...base.values];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const keyText = key.type === 'timestamptz' ? `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')` : col;
  let where = '';
  if (after) {
    const id = `${param(after.id)}::uuid`;
    if (after.key === null) {
      // Only a nullable column has NULL keys: they come last ascending, first descending.
      where = descending ? `(${col} IS NULL AND q.id > ${id}) OR ${col} IS NOT NULL` : `${col} IS NULL AND q.id > ${id}`;
    } else {
      const k = key.type === 'timestamptz' ? `(${param(after.key)}::timestamp AT TIME ZONE 'UTC')` : `${param(after.key)}::${key.type}`;
      const beyond = `${col} ${descending ? '<' : '>'} ${k} OR (${col} = ${k} AND q.id > ${id})`;
      where = key.nullable && !descending ? `${beyond} OR ${col} IS NULL` : `${col} ${descending ? '<=' : '>='} ${k} AND (${beyond})`;
    }
  }
  return {
    text: `SELECT q.*, ${keyText} AS export_key
             FROM (${base.text}) q
             ${where ? `WHERE ${where}` : ''}
            ORDER BY ${col} ${descending ? 'DESC' : 'ASC'}, q.id
            LIMIT ${param(limit)}`,
    values,
  };
}

/**
 * Reads the export's batches of `limit` rows, each after the previous one's cursor (keysetSql),
 * straight from the pool: TypeORM's per-query bookkeeping costs more than it brings for 50 reads.
 */
export function exportBatchReader(context: AppContext, list: { filter: UserListFilter; orderBy: string; sort: UserListSort }, limit: number) {
  const sql = sqlClient(context.dataSource, { prepare: false });
  const base = userListSql(list.filter, list.orderBy);
  const sort = list.sort;
  return async (after: Cursor | null): Promise<ExportRow[]> => {
    const query = keysetSql(base, sort, after, limit);
    return (await sql.query<ExportRow>(query.text, query.values)).rows;
  };
}
