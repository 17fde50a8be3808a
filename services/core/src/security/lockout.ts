import type { DataSource, EntityManager } from 'typeorm';

export interface LockoutPolicy {
  /** Failed attempts in a row that lock the account. */
  maxFailedAttempts: number;
  lockoutMinutes: number;
  /** The temporary lockout that becomes permanent (only an administrator lifts it). */
  permanentAfterLockouts: number;
}

export const DEFAULT_LOCKOUT_POLICY: LockoutPolicy = { maxFailedAttempts: 5, lockoutMinutes: 5, permanentAfterLockouts: 3 };

/** What a failed attempt did. */
export type FailureOutcome =
  | { kind: 'counted'; attemptsLeft: number }
  | { kind: 'locked'; until: Date }
  | { kind: 'permanently_locked' }
  | { kind: 'already_locked'; until: Date }
  | { kind: 'already_permanently_locked' };

export interface LockState {
  locked: boolean;
  lockoutEnd: Date | null;
}

/** Locked now? Permanent locks win over temporary ones. */
export function lockStatus(state: LockState, now = new Date()): 'open' | 'locked' | 'permanent' {
  if (state.locked) return 'permanent';
  return state.lockoutEnd && state.lockoutEnd > now ? 'locked' : 'open';
}

type Db = DataSource | EntityManager;

// One statement per failed attempt: the row lock serialises parallel attempts, so N wrong passwords
// count exactly N and a burst locks the account once. An attempt on a locked account is not counted.
const failureSql = (table: string, key: string) => `
  UPDATE ${table} AS t SET
    failed_attempts = CASE
      WHEN o.locked OR o.lockout_end > now() THEN o.failed_attempts
      WHEN o.failed_attempts + 1 >= $2 THEN 0
      ELSE o.failed_attempts + 1 END,
    lockout_count = CASE
      WHEN NOT o.locked AND (o.lockout_end IS NULL OR o.lockout_end <= now()) AND o.failed_attempts + 1 >= $2
      THEN o.lockout_count + 1 ELSE o.lockout_count END,
    lockout_end = CASE
      WHEN NOT o.locked AND (o.lockout_end IS NULL OR o.lockout_end <= now()) AND o.failed_attempts + 1 >= $2
           AND o.lockout_count + 1 < $4
      THEN now() + make_interval(mins => $3) ELSE o.lockout_end END,
    locked = CASE
      WHEN NOT o.locked AND (o.lockout_end IS NULL OR o.lockout_end <= now()) AND o.failed_attempts + 1 >= $2
           AND o.lockout_count + 1 >= $4
      THEN true ELSE o.locked END
    ${table === 'sign_in_attempts' ? ', updated_at = now()' : ''}
  FROM (SELECT ${key}, failed_attempts, lockout_count, lockout_end, locked,
               (locked OR lockout_end > now()) AS was_locked
          FROM ${table} WHERE ${key} = $1 FOR UPDATE) AS o
  WHERE t.${key} = o.${key}
  RETURNING o.was_locked, o.locked AS was_permanent, t.failed_attempts, t.lockout_end, t.locked`;

const USER_FAILURE = failureSql('users', 'id');
const UNKNOWN_FAILURE = failureSql('sign_in_attempts', 'normalized_user_name');

interface FailureRow {
  was_locked: boolean;
  was_permanent: boolean;
  failed_attempts: number;
  lockout_end: Date | null;
  locked: boolean;
}

function outcomeOf(row: FailureRow, policy: LockoutPolicy): FailureOutcome {
  if (row.was_permanent) return { kind: 'already_permanently_locked' };
  if (row.was_locked) return { kind: 'already_locked', until: row.lockout_end! };
  if (row.locked) return { kind: 'permanently_locked' };
  if (row.failed_attempts === 0) return { kind: 'locked', until: row.lockout_end! };
  return { kind: 'counted', attemptsLeft: policy.maxFailedAttempts - row.failed_attempts };
}

/** Counts a failed attempt on an account. */
export async function recordUserFailure(db: Db, userId: string, policy = DEFAULT_LOCKOUT_POLICY): Promise<FailureOutcome> {
  const rows: [FailureRow[], number] | FailureRow[] = await db.query(USER_FAILURE, [
    userId,
    policy.maxFailedAttempts,
    policy.lockoutMinutes,
    policy.permanentAfterLockouts,
  ]);
  return outcomeOf(firstRow(rows), policy);
}

/** Counts a failed attempt on a user name that matches no account, exactly as for an account. */
export async function recordUnknownFailure(
  db: Db,
  normalizedUserName: string,
  policy = DEFAULT_LOCKOUT_POLICY,
): Promise<FailureOutcome> {
  await db.query(
    'INSERT INTO sign_in_attempts (normalized_user_name) VALUES ($1) ON CONFLICT (normalized_user_name) DO NOTHING',
    [normalizedUserName],
  );
  const rows = await db.query(UNKNOWN_FAILURE, [
    normalizedUserName,
    policy.maxFailedAttempts,
    policy.lockoutMinutes,
    policy.permanentAfterLockouts,
  ]);
  return outcomeOf(firstRow(rows), policy);
}

/** The lock state of a user name that matches no account. */
export async function unknownLockState(db: Db, normalizedUserName: string): Promise<LockState> {
  const [row] = await db.query('SELECT locked, lockout_end FROM sign_in_attempts WHERE normalized_user_name = $1', [
    normalizedUserName,
  ]);
  return { locked: row?.locked ?? false, lockoutEnd: row?.lockout_end ?? null };
}

export interface SignInSuccess {
  userId: string;
  userName: string;
  reason: string;
  provider: 'Local' | 'Microsoft';
  returnUrl?: string | null;
  applicationName?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  /** The federated identity used, whose last use is dated too. */
  externalLoginId?: string | null;
}

/**
 * A completed sign-in: the failure count and the run of temporary lockouts cleared, the sign-in
 * dated, and its authentication-log row written, in one round trip.
 */
export async function recordSignInSuccess(db: Db, success: SignInSuccess): Promise<void> {
  await db.query(
    `WITH success AS (
       UPDATE users SET failed_attempts = 0, lockout_count = 0, lockout_end = NULL, last_login_at = now() WHERE id = $1),
     used AS (UPDATE user_external_logins SET last_used_at = now() WHERE id = $9)
     INSERT INTO authentication_logs (user_id, user_name, result, reason, authentication_provider, return_url, application_name, ip, user_agent)
     VALUES ($1, $2, 'Success', $3, $4, $5, $6, $7, $8)`,
    [
      success.userId,
      success.userName.slice(0, 256),
      success.reason,
      success.provider,
      success.returnUrl?.slice(0, 2000) ?? null,
      success.applicationName?.slice(0, 200) ?? null,
      success.ip?.slice(0, 64) ?? null,
      success.userAgent?.slice(0, 500) ?? null,
      success.externalLoginId ?? null,
    ],
  );
}

/** Lifts every lock (an administrator's unlock). */
export async function unlockUser(db: Db, userId: string): Promise<void> {
  await db.query(
    'UPDATE users SET locked = false, lockout_end = NULL, failed_attempts = 0, lockout_count = 0, modified_on = now() WHERE id = $1',
    [userId],
  );
}

/** Forgets idle failure counters of unknown user names (kept while they are locked). */
export async function sweepSignInAttempts(db: Db, idleHours = 24): Promise<number> {
  const result = await db.query(
    `DELETE FROM sign_in_attempts WHERE updated_at < now() - make_interval(hours => $1) AND NOT locked
        AND (lockout_end IS NULL OR lockout_end < now())`,
    [idleHours],
  );
  return Array.isArray(result) ? Number(result[1] ?? 0) : 0;
}

function firstRow(result: unknown): FailureRow {
  // TypeORM answers an UPDATE … RETURNING on postgres as [rows, affectedCount].
  const rows = Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as FailureRow[]) : (result as FailureRow[]);
  if (!rows[0]) throw new Error('the account to count a failure on does not exist');
  return rows[0];
}
