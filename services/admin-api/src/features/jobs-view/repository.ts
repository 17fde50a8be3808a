import { sha256 } from '@gatehouse/core';
import { JOBS_VIEW_PAGE_SIZE, type JOB_STATUSES, type JOB_TYPES } from '@gatehouse/contracts';
import type { Queryable } from '../../db.js';

type JobStatus = (typeof JOB_STATUSES)[number];
type JobType = (typeof JOB_TYPES)[number];

/**
 * The page's session is a JobDashboard user token like the code that opens it, told apart by its
 * data: a code is never a session, a session never a code.
 */
const IS_SESSION = `(context->>'session') = 'true'`;

/** Whose code or session it is, and the language of the console that asked for the page, if it said. */
export interface PageHolder {
  userId: string;
  language: string | undefined;
}

const holderOf = (row: { user_id: string; language: string | null } | undefined): PageHolder | undefined =>
  row ? { userId: row.user_id, language: row.language ?? undefined } : undefined;

/**
 * Uses a live one-time code (not a session) in the same statement that checks it, so two requests
 * racing with one code cannot both get through; answers its holder, or undefined.
 */
export async function redeemCode(db: Queryable, code: string): Promise<PageHolder | undefined> {
  // TypeORM answers an UPDATE … RETURNING on postgres as [rows, affectedCount].
  const [rows] = await db.query<[Array<{ user_id: string; language: string | null }>, number]>(
    `UPDATE user_tokens SET consumed_at = now()
      WHERE token_hash = $1 AND purpose = 'JobDashboard' AND consumed_at IS NULL AND expires_at > now()
        AND NOT COALESCE(${IS_SESSION}, false)
      RETURNING user_id, context->>'language' AS language`,
    [sha256(code)],
  );
  return holderOf(rows[0]);
}

/** The holder of a live session of the page, or undefined. */
export async function findSessionUser(db: Queryable, session: string): Promise<PageHolder | undefined> {
  const [row] = await db.query<Array<{ user_id: string; language: string | null }>>(
    `SELECT user_id, context->>'language' AS language FROM user_tokens
      WHERE token_hash = $1 AND purpose = 'JobDashboard' AND ${IS_SESSION} AND consumed_at IS NULL AND expires_at > now()`,
    [sha256(session)],
  );
  return holderOf(row);
}

/** The language a user chose, if the account still exists. */
export async function findUserLanguage(db: Queryable, userId: string): Promise<string | undefined> {
  const [row] = await db.query<Array<{ language: string }>>('SELECT language FROM users WHERE id = $1', [userId]);
  return row?.language;
}

export interface JobFilters {
  status?: JobStatus;
  type?: JobType;
}

/** A `background_jobs` row as the page lists it, with its requester's names. */
export interface JobRow {
  id: string;
  type: JobType;
  status: JobStatus;
  user_name: string | null;
  first_name: string | null;
  last_name: string | null;
  progress: number;
  total: number | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** One job in full: what the list shows, its payload and its result. */
export interface JobDetailRow extends JobRow {
  payload: Record<string, unknown>;
  result: Record<string, unknown> | null;
}

const COLUMNS = `j.id, j.type, j.status, u.user_name, u.first_name, u.last_name, j.progress, j.total, j.error, j.created_at, j.started_at, j.finished_at`;
const FROM = 'FROM background_jobs j LEFT JOIN users u ON u.id = j.user_id';
const WHERE = 'WHERE ($1::varchar IS NULL OR j.status = $1) AND ($2::varchar IS NULL OR j.type = $2)';

/** How many jobs there are in each status (statuses without any are absent). */
export async function countJobsByStatus(db: Queryable): Promise<Map<JobStatus, number>> {
  const rows = await db.query<Array<{ status: JobStatus; count: number }>>('SELECT status, count(*)::int AS count FROM background_jobs GROUP BY status');
  return new Map(rows.map((row) => [row.status, row.count]));
}

/** One page of the jobs the filters select, newest first, and how many they select in all. */
export async function listJobs(db: Queryable, filters: JobFilters, page: number): Promise<{ rows: JobRow[]; count: number }> {
  const parameters = [filters.status ?? null, filters.type ?? null];
  const rows = await db.query<JobRow[]>(
    `SELECT ${COLUMNS} ${FROM} ${WHERE} ORDER BY j.created_at DESC, j.id DESC LIMIT $3 OFFSET $4`,
    [...parameters, JOBS_VIEW_PAGE_SIZE, (page - 1) * JOBS_VIEW_PAGE_SIZE],
  );
  const [total] = await db.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM background_jobs j ${WHERE}`, parameters);
  return { rows, count: total!.count };
}

/** One job, or undefined. */
export async function findJob(db: Queryable, id: string): Promise<JobDetailRow | undefined> {
  const [row] = await db.query<JobDetailRow[]>(`SELECT ${COLUMNS}, j.payload, j.result ${FROM} WHERE j.id = $1`, [id]);
  return row;
}
