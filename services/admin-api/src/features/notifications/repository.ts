import type { Queryable } from '../../db.js';

/** A `notifications` row as the service reads it. */
export interface NotificationRow {
  id: string;
  user_id: string;
  type: string;
  description: string | null;
  data: unknown;
  /** `{ key, params }`: the phrase the description was written from (rows of older versions have none). */
  message: unknown;
  read_at: Date | null;
  created_at: Date;
}

/** A `background_jobs` row that has not finished, as the task list reads it. */
export interface ActiveTaskRow {
  id: string;
  type: string;
  status: string;
  start_time: Date;
  progress: number;
  total: number | null;
}

const COLUMNS = 'id, user_id, type, description, data, message, read_at, created_at';

export interface NewNotificationRow {
  userId: string;
  type: string;
  description: string | null;
  data: Record<string, unknown> | null;
  message: { key: string; params: Record<string, unknown> } | null;
}

/** Stores a notification for a user; answers the stored row. */
export async function insertNotification(db: Queryable, row: NewNotificationRow): Promise<NotificationRow> {
  const [inserted] = await db.query<NotificationRow[]>(
    `INSERT INTO notifications (user_id, type, description, data, message) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [row.userId, row.type, row.description, row.data === null ? null : JSON.stringify(row.data), row.message === null ? null : JSON.stringify(row.message)],
  );
  return inserted!;
}

/** The user's newest notifications (newest first, the id breaking ties), their total and how many are unread. */
export async function listNotifications(db: Queryable, userId: string, take: number): Promise<{ rows: NotificationRow[]; count: number; unread: number }> {
  const rows = await db.query<NotificationRow[]>(
    `SELECT ${COLUMNS} FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userId, take],
  );
  const [totals] = await db.query<Array<{ count: string; unread: string }>>(
    `SELECT count(*) AS count, count(*) FILTER (WHERE read_at IS NULL) AS unread FROM notifications WHERE user_id = $1`,
    [userId],
  );
  return { rows, count: Number(totals!.count), unread: Number(totals!.unread) };
}

/**
 * Marks the user's unread notifications read, only those of `ids` when given (ids of other users'
 * match nothing); answers how many changed and how many of the user's stay unread.
 */
export async function markNotificationsRead(db: Queryable, userId: string, ids: string[] | null): Promise<{ marked: number; unread: number }> {
  const [row] = await db.query<Array<{ marked: string; unread: string }>>(
    `WITH marked AS (
       UPDATE notifications SET read_at = now()
        WHERE user_id = $1 AND read_at IS NULL AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[]))
        RETURNING id
     )
     SELECT (SELECT count(*) FROM marked) AS marked,
            (SELECT count(*) FROM notifications n WHERE n.user_id = $1 AND n.read_at IS NULL AND n.id NOT IN (SELECT id FROM marked)) AS unread`,
    [userId, ids],
  );
  return { marked: Number(row!.marked), unread: Number(row!.unread) };
}

/** Deletes one of the user's notifications in one statement; answers whether there was one. */
export async function deleteNotification(db: Queryable, userId: string, id: string): Promise<boolean> {
  // Read back through a SELECT: a bare DELETE answers its rows and count as a pair.
  const [row] = await db.query<Array<{ deleted: string }>>(
    'WITH d AS (DELETE FROM notifications WHERE id = $1 AND user_id = $2 RETURNING id) SELECT count(*) AS deleted FROM d',
    [id, userId],
  );
  return Number(row!.deleted) > 0;
}

/** Deletes every notification of the user; answers how many there were. */
export async function deleteNotifications(db: Queryable, userId: string): Promise<number> {
  const [row] = await db.query<Array<{ deleted: string }>>(
    'WITH d AS (DELETE FROM notifications WHERE user_id = $1 RETURNING id) SELECT count(*) AS deleted FROM d',
    [userId],
  );
  return Number(row!.deleted);
}

/**
 * The user's background jobs still queued or running, newest start first (a queued job counts
 * from when it was asked for).
 */
export async function listActiveTasks(db: Queryable, userId: string, take: number): Promise<ActiveTaskRow[]> {
  return db.query<ActiveTaskRow[]>(
    `SELECT id, type, status, coalesce(started_at, created_at) AS start_time, progress, total
       FROM background_jobs
      WHERE user_id = $1 AND status IN ('Queued', 'Running')
      ORDER BY start_time DESC, id DESC
      LIMIT $2`,
    [userId, take],
  );
}
