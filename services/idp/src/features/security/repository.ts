import type { AppContext } from '@gatehouse/core';
import type { EntityManager } from 'typeorm';

type Db = AppContext['dataSource'] | EntityManager;

/** What "My security" reads of the signed-in user besides their factors. */
export interface SecurityUserRow {
  id: string;
  user_name: string;
  password_hash: string | null;
  /** A second factor is asked at every sign-in: the user's choice, an authenticator app, or a tenant's rule. */
  second_factor_required: boolean;
}

/** The user's account, with whether a second factor is asked (as the sign-in decides it); undefined once deleted. */
export async function findSecurityUser(db: Db, userId: string): Promise<SecurityUserRow | undefined> {
  const [row]: SecurityUserRow[] = await db.query(
    `SELECT u.id, u.user_name, u.password_hash,
            u.two_factor_enabled OR u.totp_enabled_at IS NOT NULL OR EXISTS (
              SELECT 1 FROM tenant_members tm JOIN tenants t ON t.id = tm.tenant_id
               WHERE t.required_two_mode_authentification
                 AND (tm.user_id = u.id OR tm.group_id IN (SELECT group_id FROM group_members WHERE user_id = u.id))
            ) AS second_factor_required
       FROM users u WHERE u.id = $1`,
    [userId],
  );
  return row;
}

/** A provider session as the user sees it. */
export interface SessionFacts {
  sessionUid: string;
  userId: string;
  userAgent: string | null;
  ip: string | null;
  amr: string[];
  /** When the session signed in (epoch seconds). */
  loginTs: number;
}

/**
 * Notes a provider session the first time it is seen, and when it is seen again (at most once a
 * minute, or when it signed in again). A row never moves to another user, nor comes back once ended.
 */
export async function recordUserSession(db: Db, session: SessionFacts): Promise<void> {
  await db.query(
    `INSERT INTO user_sessions AS s (session_uid, user_id, user_agent, ip, amr, started_at, last_seen_at)
     VALUES ($1, $2, $3, $4, $5, to_timestamp($6), now())
     ON CONFLICT (session_uid) DO UPDATE SET
       user_agent = EXCLUDED.user_agent, ip = EXCLUDED.ip, amr = EXCLUDED.amr, started_at = EXCLUDED.started_at, last_seen_at = now()
     WHERE s.user_id = EXCLUDED.user_id AND s.ended_at IS NULL
       AND (s.last_seen_at < now() - interval '1 minute' OR s.started_at <> EXCLUDED.started_at)`,
    [session.sessionUid, session.userId, session.userAgent?.slice(0, 500) ?? null, session.ip?.slice(0, 64) ?? null, session.amr, session.loginTs],
  );
}

/** Dates the confirmation of the password in a session (recorded first when it was not yet). */
export async function markReauthenticated(db: Db, session: SessionFacts): Promise<void> {
  await db.query(
    `INSERT INTO user_sessions AS s (session_uid, user_id, user_agent, ip, amr, started_at, reauthenticated_at)
     VALUES ($1, $2, $3, $4, $5, to_timestamp($6), now())
     ON CONFLICT (session_uid) DO UPDATE SET reauthenticated_at = now() WHERE s.user_id = EXCLUDED.user_id`,
    [session.sessionUid, session.userId, session.userAgent?.slice(0, 500) ?? null, session.ip?.slice(0, 64) ?? null, session.amr, session.loginTs],
  );
}

/** One of the user's sessions still live in the provider and not ended. */
export interface LiveSessionRow {
  session_uid: string;
  user_agent: string | null;
  ip: string | null;
  amr: string[];
  started_at: Date;
  last_seen_at: Date;
  /** The session's applications: client id → its grant, and the session's id (`sid`) as that application knows it. */
  authorizations: Record<string, { grantId?: string; sid?: string }>;
}

const LIVE_SESSIONS = `
  SELECT us.session_uid, us.user_agent, us.ip, us.amr, us.started_at, us.last_seen_at, o.authorizations
    FROM user_sessions us
    JOIN LATERAL (
      SELECT COALESCE(m.payload->'authorizations', '{}'::jsonb) AS authorizations
        FROM oidc_model_instances m
       WHERE m.model = 'Session' AND m.uid = us.session_uid AND m.payload->>'accountId' = $2
         AND (m.expires_at IS NULL OR m.expires_at > now())
       LIMIT 1
    ) o ON true
   WHERE us.user_id = $1 AND us.ended_at IS NULL`;

/** The user's sessions still live in the provider and not ended, the last seen first. */
export async function listLiveSessions(db: Db, userId: string): Promise<LiveSessionRow[]> {
  return db.query(`${LIVE_SESSIONS} ORDER BY us.last_seen_at DESC, us.session_uid`, [userId, userId]);
}

/** One live session of the user; undefined when it is another user's, ended, or unknown. */
export async function findLiveSession(db: Db, userId: string, sessionUid: string): Promise<LiveSessionRow | undefined> {
  const [row]: LiveSessionRow[] = await db.query(`${LIVE_SESSIONS} AND us.session_uid = $3`, [userId, userId, sessionUid]);
  return row;
}

/** The display names of applications by client id. */
export async function applicationNames(db: Db, clientIds: readonly string[]): Promise<Map<string, string>> {
  if (!clientIds.length) return new Map();
  const rows: Array<{ name: string; display_name: string }> = await db.query('SELECT name, display_name FROM applications WHERE name = ANY($1)', [clientIds]);
  return new Map(rows.map((row) => [row.name, row.display_name]));
}

/**
 * Deletes what the provider holds for one session of the user, in one statement: the session, the
 * grants it lists, and every code and token issued under those grants or in that session (refresh
 * tokens included). Answers the grants whose cached copies and tokens every node must drop.
 */
export async function deleteProviderSession(db: Db, userId: string, sessionUid: string): Promise<string[]> {
  const [rows]: [Array<{ model: string; id: string; grant_id: string | null }>, number] = await db.query(
    `WITH ended AS (
       DELETE FROM oidc_model_instances
        WHERE model = 'Session' AND uid = $2 AND payload->>'accountId' = $1
       RETURNING payload->'authorizations' AS authorizations
     ),
     grants AS (
       SELECT DISTINCT a.value->>'grantId' AS id
         FROM ended, jsonb_each(COALESCE(ended.authorizations, '{}'::jsonb)) AS a
        WHERE a.value->>'grantId' IS NOT NULL
     ),
     -- Each arm on an index: (model, grant_id), the primary key, and the tokens' session uid.
     targets AS (
       SELECT model, id FROM oidc_model_instances
        WHERE model IN ('AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest') AND grant_id IN (SELECT id FROM grants)
       UNION SELECT 'Grant', id FROM grants
       UNION SELECT model, id FROM oidc_model_instances WHERE payload ? 'sessionUid' AND payload->>'sessionUid' = $2
     )
     DELETE FROM oidc_model_instances o USING targets t
      WHERE o.model = t.model AND o.id = t.id AND o.payload->>'accountId' = $1
     RETURNING o.model, o.id, o.grant_id`,
    [userId, sessionUid],
  );
  return [...new Set(rows.map((row) => (row.model === 'Grant' ? row.id : row.grant_id)).filter((id): id is string => Boolean(id)))];
}

/** Marks a session ended; false when it already was (by another request). */
export async function markSessionEnded(db: Db, userId: string, sessionUid: string): Promise<boolean> {
  const [, ended] = await db.query('UPDATE user_sessions SET ended_at = now() WHERE session_uid = $1 AND user_id = $2 AND ended_at IS NULL', [sessionUid, userId]);
  return Number(ended) === 1;
}
