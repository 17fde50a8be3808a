import { likePattern, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** The SQL each sortable field of the token lists sorts by. */
export const PAT_SORT = {
  name: 'p.name',
  applicationName: 'a.name',
  expiresAt: 'p.expires_at',
  lastDateOfUse: 'p.last_used_at',
  createdAt: 'p.created_at',
  createByName: 'u.user_name',
} as const;

/** A token as the lists read it: never its hash. */
export interface PatRow {
  id: string;
  name: string;
  application_id: string;
  application_name: string;
  application_display_name: string;
  token_prefix: string;
  token_last_chars: string | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  user_id: string;
  user_name: string;
}

export interface PatApplicationRow {
  id: string;
  name: string;
  display_name: string;
}

/** Whose tokens a list shows, and what its search looks at. */
export interface PatFilter {
  /** One owner's tokens; null: everyone's. */
  ownerId: string | null;
  /** Whether the search also matches the owner's user name. */
  searchOwner: boolean;
}

const COLUMNS = `p.id, p.name, p.application_id, a.name AS application_name, a.display_name AS application_display_name,
  p.token_prefix, p.token_last_chars, p.expires_at, p.last_used_at, p.created_at, p.user_id, u.user_name`;
const FROM = 'personal_access_tokens p JOIN applications a ON a.id = p.application_id JOIN users u ON u.id = p.user_id';
const WHERE = `($1::uuid IS NULL OR p.user_id = $1)
  AND ($2::text IS NULL OR p.name ILIKE $2 OR a.name ILIKE $2 OR a.display_name ILIKE $2 OR ($3::boolean AND u.user_name ILIKE $2))`;

/** A page of the tokens the filter keeps, and their total. */
export async function listPats(db: Queryable, query: ListQuery, filter: PatFilter): Promise<{ rows: PatRow[]; count: number }> {
  const params = [filter.ownerId, query.search ? likePattern(query.search) : null, filter.searchOwner];
  const rows = await db.query<Array<PatRow & { total: string }>>(
    `SELECT ${COLUMNS}, count(*) OVER () AS total
       FROM ${FROM}
      WHERE ${WHERE}
      ORDER BY ${query.orderBy}, p.id
      LIMIT $4 OFFSET $5`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM ${FROM} WHERE ${WHERE}`, params);
    return Number(row!.count);
  });
  return { rows, count };
}

/** One token; undefined when there is none with this id. */
export async function findPat(db: Queryable, id: string): Promise<PatRow | undefined> {
  const [row] = await db.query<PatRow[]>(`SELECT ${COLUMNS} FROM ${FROM} WHERE p.id = $1`, [id]);
  return row;
}

/**
 * The applications in which the user holds a role, directly or through a group, in any tenant
 * (inheritance passes roles down the tree, never to other applications); `name` keeps only that
 * application.
 */
export async function findRoleApplications(db: Queryable, userId: string, name: string | null = null): Promise<PatApplicationRow[]> {
  return db.query<PatApplicationRow[]>(
    `SELECT DISTINCT a.id, a.name, a.display_name
       FROM applications a
       JOIN roles r ON r.application_id = a.id
       JOIN tenant_member_roles tmr ON tmr.role_id = r.id
       JOIN tenant_members tm ON tm.id = tmr.tenant_member_id
      WHERE (tm.user_id = $1 OR tm.group_id IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = $1))
        AND ($2::varchar IS NULL OR a.name = $2)
      ORDER BY a.display_name, a.id`,
    [userId, name],
  );
}

export interface NewPatRow {
  name: string;
  userId: string;
  applicationId: string;
  hash: string;
  prefix: string;
  lastChars: string;
  expiresAt: Date;
}

/** Stores a new token (its hash, never its value); answers its id. */
export async function insertPat(db: Queryable, pat: NewPatRow): Promise<string> {
  const [row] = await db.query<Array<{ id: string }>>(
    `INSERT INTO personal_access_tokens (name, user_id, application_id, token_hash, token_prefix, token_last_chars, expires_at, created_by_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $2) RETURNING id`,
    [pat.name, pat.userId, pat.applicationId, pat.hash, pat.prefix, pat.lastChars, pat.expiresAt],
  );
  return row!.id;
}

/**
 * Deletes a token, only if `ownerId` owns it (null: whoever does), in one statement; answers what
 * was deleted, undefined when nothing was.
 */
export async function deletePat(db: Queryable, id: string, ownerId: string | null): Promise<PatRow | undefined> {
  // The deleted row is read back under the alias the list columns use.
  const [row] = await db.query<PatRow[]>(
    `WITH p AS (DELETE FROM personal_access_tokens WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2) RETURNING *)
     SELECT ${COLUMNS} FROM p JOIN applications a ON a.id = p.application_id JOIN users u ON u.id = p.user_id`,
    [id, ownerId],
  );
  return row;
}

