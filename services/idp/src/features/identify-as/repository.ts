import type { IdentifyAsEndReason } from '@gatehouse/contracts';
import type { Queryable, SqlClient } from '@gatehouse/core';

/** An impersonation as the provider reads it (see the `impersonations` table). */
export interface SessionImpersonation {
  id: string;
  /** The God user who acts. */
  actorId: string;
  /** Their display name (else user name), for the `act` claim. */
  actorName: string;
  actorUserName: string;
  /** The user the session is signed in as. */
  targetId: string;
  targetUserName: string;
  sessionUid: string;
  startedAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
}

type Row = {
  id: string;
  actor_id: string;
  actor_name: string;
  actor_user_name: string;
  target_id: string;
  target_user_name: string;
  session_uid: string;
  started_at: Date;
  expires_at: Date;
  ended_at: Date | null;
};

const toImpersonation = (row: Row): SessionImpersonation => ({
  id: row.id,
  actorId: row.actor_id,
  actorName: row.actor_name,
  actorUserName: row.actor_user_name,
  targetId: row.target_id,
  targetUserName: row.target_user_name,
  sessionUid: row.session_uid,
  startedAt: new Date(row.started_at),
  expiresAt: new Date(row.expires_at),
  endedAt: row.ended_at ? new Date(row.ended_at) : null,
});

const SELECT = `
  SELECT i.id, i.actor_id, i.target_id, i.session_uid, i.started_at, i.expires_at, i.ended_at,
         coalesce(nullif(btrim(concat_ws(' ', a.first_name, a.last_name)), ''), a.user_name) AS actor_name,
         a.user_name AS actor_user_name, t.user_name AS target_user_name
    FROM impersonations i JOIN users a ON a.id = i.actor_id JOIN users t ON t.id = i.target_id`;

/** The impersonations `actorId` has not ended yet (live, or past their time but not yet noticed). */
export async function findOpenByActor(db: Queryable, actorId: string): Promise<SessionImpersonation[]> {
  const rows = await db.query<Row[]>(`${SELECT} WHERE i.actor_id = $1 AND i.ended_at IS NULL`, [actorId]);
  return rows.map(toImpersonation);
}

/** The impersonation of a provider session (by its uid), whatever its state; undefined when it never had one. */
export async function findBySession(sql: SqlClient, sessionUid: string): Promise<SessionImpersonation | undefined> {
  const { rows } = await sql.query<Row>(`${SELECT} WHERE i.session_uid = $1`, [sessionUid], 'idp_impersonation_by_session');
  return rows[0] && toImpersonation(rows[0]);
}

/** The impersonation `id`, whatever its state; undefined when there is none. */
export async function findById(sql: SqlClient, id: string): Promise<SessionImpersonation | undefined> {
  const { rows } = await sql.query<Row>(`${SELECT} WHERE i.id = $1`, [id], 'idp_impersonation_by_id');
  return rows[0] && toImpersonation(rows[0]);
}

/** Records that `actorId` is signed in as `targetId` in the session `sessionUid`, for `minutes` from now. */
export async function insertImpersonation(
  db: Queryable,
  values: { actorId: string; targetId: string; sessionUid: string; minutes: number },
): Promise<{ id: string; startedAt: Date; expiresAt: Date }> {
  const [row] = await db.query<Array<{ id: string; started_at: Date; expires_at: Date }>>(
    `INSERT INTO impersonations (actor_id, target_id, session_uid, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(mins => $4)) RETURNING id, started_at, expires_at`,
    [values.actorId, values.targetId, values.sessionUid, values.minutes],
  );
  return { id: row!.id, startedAt: new Date(row!.started_at), expiresAt: new Date(row!.expires_at) };
}

/**
 * Ends an impersonation that has not ended yet, in one statement: `Expired` when its time has
 * come (whoever notices it), else `reason`. Answers how it ended, or undefined when it had
 * already ended (another request, another node, won).
 */
export async function endImpersonation(db: Queryable, id: string, reason: IdentifyAsEndReason): Promise<IdentifyAsEndReason | undefined> {
  // TypeORM answers an UPDATE on postgres as `[rows, affectedCount]`.
  const [rows] = await db.query<[Array<{ end_reason: IdentifyAsEndReason }>, number]>(
    `UPDATE impersonations
        SET ended_at = least(now(), expires_at),
            end_reason = CASE WHEN expires_at <= now() THEN 'Expired' ELSE $2 END
      WHERE id = $1 AND ended_at IS NULL
     RETURNING end_reason`,
    [id, reason],
  );
  return rows[0]?.end_reason;
}
