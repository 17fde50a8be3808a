import type { DataSource, EntityManager } from 'typeorm';
import type { AppContext } from '../context.js';
import { writeAuthenticationLog } from '../logging/audit.js';

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
  /** `attempts`: the failures in a row that lock an account, as the policy now says. */
  | { kind: 'locked'; until: Date; attempts: number }
  | { kind: 'permanently_locked' }
  | { kind: 'already_locked'; until: Date; attempts: number }
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

/**
 * Attempts are counted before they are checked: an attempt first reserves one of the account's
 * remaining failures (one row-locked statement), and only then is the password or code verified.
 * A right answer gives the reservation back; a wrong one settles it as a failure. So however many
 * guesses arrive at once, at most `maxFailedAttempts` of them are ever verified before the account
 * locks, and a success never completes on an account that a sibling attempt has locked meanwhile.
 */
export type Reservation =
  | { kind: 'reserved' }
  /** Every remaining failure is held by attempts still being verified. */
  | { kind: 'busy' }
  | { kind: 'locked'; until: Date; attempts: number }
  /**
   * `byFailures`: the lock is the last of the run of temporary ones that failed attempts caused;
   * otherwise someone locked the account (an administrator, an application).
   */
  | { kind: 'permanent'; byFailures?: boolean };

/** The tables that count failures: accounts, and user names that match no account. */
type Counter = { table: 'users'; key: 'id' } | { table: 'sign_in_attempts'; key: 'normalized_user_name' };
const USERS: Counter = { table: 'users', key: 'id' };
const UNKNOWN: Counter = { table: 'sign_in_attempts', key: 'normalized_user_name' };

const touched = (c: Counter) => (c.table === 'sign_in_attempts' ? ', updated_at = now()' : '');
const OPEN = 'NOT o.locked AND (o.lockout_end IS NULL OR o.lockout_end <= now())';
const current = (c: Counter) =>
  `(SELECT ${c.key}, failed_attempts, lockout_count, lockout_end, locked FROM ${c.table} WHERE ${c.key} = $1 FOR UPDATE) AS o`;

const reserveSql = (c: Counter) => `
  UPDATE ${c.table} AS t SET
    failed_attempts = CASE WHEN ${OPEN} AND o.failed_attempts < $2 THEN o.failed_attempts + 1 ELSE o.failed_attempts END
    ${touched(c)}
  FROM ${current(c)}
  WHERE t.${c.key} = o.${c.key}
  RETURNING o.locked, o.lockout_count, CASE WHEN o.lockout_end > now() THEN o.lockout_end END AS lockout_end,
            (${OPEN} AND o.failed_attempts < $2) AS reserved`;

// The reserved attempt failed. The failures counted so far include attempts still being verified,
// so the one that settles while the count stands at the limit locks the account.
const settleSql = (c: Counter) => `
  UPDATE ${c.table} AS t SET
    failed_attempts = CASE WHEN ${OPEN} AND o.failed_attempts >= $2 THEN 0 ELSE o.failed_attempts END,
    lockout_count = CASE WHEN ${OPEN} AND o.failed_attempts >= $2 THEN o.lockout_count + 1 ELSE o.lockout_count END,
    lockout_end = CASE WHEN ${OPEN} AND o.failed_attempts >= $2 AND o.lockout_count + 1 < $4
                       THEN now() + make_interval(mins => $3) ELSE o.lockout_end END,
    locked = CASE WHEN ${OPEN} AND o.failed_attempts >= $2 AND o.lockout_count + 1 >= $4 THEN true ELSE o.locked END
    ${touched(c)}
  FROM ${current(c)}
  WHERE t.${c.key} = o.${c.key}
  RETURNING NOT (${OPEN}) AND o.lockout_end IS NOT NULL AND NOT o.locked AS was_locked, o.locked AS was_permanent,
            (${OPEN} AND o.failed_attempts >= $2) AS locked_now, t.failed_attempts, t.lockout_end, t.locked`;

const refundSql = (c: Counter) =>
  `UPDATE ${c.table} SET failed_attempts = GREATEST(failed_attempts - 1, 0) WHERE ${c.key} = $1`;

const SQL = new Map(
  [USERS, UNKNOWN].map((c) => [c.table, { reserve: reserveSql(c), settle: settleSql(c), refund: refundSql(c) }] as const),
);

interface ReserveRow {
  locked: boolean;
  lockout_count: number;
  lockout_end: Date | null;
  reserved: boolean;
}

interface FailureRow {
  was_locked: boolean;
  was_permanent: boolean;
  locked_now: boolean;
  failed_attempts: number;
  lockout_end: Date | null;
  locked: boolean;
}

function outcomeOf(row: FailureRow, policy: LockoutPolicy): FailureOutcome {
  if (row.was_permanent) return { kind: 'already_permanently_locked' };
  const attempts = policy.maxFailedAttempts;
  if (row.was_locked) return { kind: 'already_locked', until: row.lockout_end!, attempts };
  if (row.locked_now) return row.locked ? { kind: 'permanently_locked' } : { kind: 'locked', until: row.lockout_end!, attempts };
  return { kind: 'counted', attemptsLeft: Math.max(1, policy.maxFailedAttempts - row.failed_attempts) };
}

async function reserve(db: Db, counter: Counter, key: string, policy: LockoutPolicy): Promise<Reservation> {
  const row = firstRow<ReserveRow>(await db.query(SQL.get(counter.table)!.reserve, [key, policy.maxFailedAttempts]));
  if (row.reserved) return { kind: 'reserved' };
  if (row.locked) return { kind: 'permanent', byFailures: row.lockout_count >= policy.permanentAfterLockouts };
  return row.lockout_end ? { kind: 'locked', until: row.lockout_end, attempts: policy.maxFailedAttempts } : { kind: 'busy' };
}

async function settle(db: Db, counter: Counter, key: string, policy: LockoutPolicy): Promise<FailureOutcome> {
  const params = [key, policy.maxFailedAttempts, policy.lockoutMinutes, policy.permanentAfterLockouts];
  return outcomeOf(firstRow<FailureRow>(await db.query(SQL.get(counter.table)!.settle, params)), policy);
}

/** Reserves one failure of an account before its password or code is checked. */
export function reserveUserAttempt(db: Db, userId: string, policy = DEFAULT_LOCKOUT_POLICY): Promise<Reservation> {
  return reserve(db, USERS, userId, policy);
}

/** Reserves one failure of a user name that matches no account, exactly as for an account. */
export async function reserveUnknownAttempt(db: Db, normalizedUserName: string, policy = DEFAULT_LOCKOUT_POLICY): Promise<Reservation> {
  await db.query(
    'INSERT INTO sign_in_attempts (normalized_user_name) VALUES ($1) ON CONFLICT (normalized_user_name) DO NOTHING',
    [normalizedUserName],
  );
  return reserve(db, UNKNOWN, normalizedUserName, policy);
}

/** The reserved attempt on an account failed: it counts, and may lock the account. */
export function recordUserFailure(db: Db, userId: string, policy = DEFAULT_LOCKOUT_POLICY): Promise<FailureOutcome> {
  return settle(db, USERS, userId, policy);
}

/** The reserved attempt on an unknown user name failed. */
export function recordUnknownFailure(db: Db, normalizedUserName: string, policy = DEFAULT_LOCKOUT_POLICY): Promise<FailureOutcome> {
  return settle(db, UNKNOWN, normalizedUserName, policy);
}

/** The reserved attempt on an account was right (or never checked): the reservation is given back. */
export async function refundUserAttempt(db: Db, userId: string): Promise<void> {
  await db.query(SQL.get('users')!.refund, [userId]);
}

/** The reserved attempt on an unknown user name was never checked. */
export async function refundUnknownAttempt(db: Db, normalizedUserName: string): Promise<void> {
  await db.query(SQL.get('sign_in_attempts')!.refund, [normalizedUserName]);
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
 * dated, and its authentication-log row written, in one round trip. Only an account that is not
 * locked at that moment completes (a parallel attempt may have locked it while this one was being
 * verified): false means refused, and nothing was changed.
 */
export async function recordSignInSuccess(db: Db, success: SignInSuccess): Promise<boolean> {
  const result: unknown = await db.query(
    `WITH success AS (
       UPDATE users SET failed_attempts = 0, lockout_count = 0, lockout_end = NULL, last_login_at = now()
        WHERE id = $1 AND NOT locked AND (lockout_end IS NULL OR lockout_end <= now()) RETURNING id),
     used AS (UPDATE user_external_logins SET last_used_at = now() WHERE id = $9 AND EXISTS (SELECT 1 FROM success))
     INSERT INTO authentication_logs (user_id, user_name, result, reason, authentication_provider, return_url, application_name, ip, user_agent)
     SELECT $1, $2, 'Success', $3, $4, $5, $6, $7, $8 FROM success
     RETURNING id`,
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
  return rowsOf(result).length > 0;
}

/**
 * An operator's unlock by user name: every lock and failure count lifted, the per-address failure
 * counts forgotten, an Unlocked log row written, and every node told. Undefined for an unknown name.
 */
export async function unlockAccount(
  context: Pick<AppContext, 'dataSource' | 'throttle' | 'broadcast'>,
  userName: string,
  reason: string,
): Promise<{ id: string; userName: string } | undefined> {
  const normalized = userName.trim().toLowerCase();
  const [user] = await context.dataSource.query('SELECT id, user_name FROM users WHERE normalized_user_name = $1', [normalized]);
  if (!user) return undefined;
  await unlockUser(context.dataSource, user.id);
  await writeAuthenticationLog(context.dataSource, { userId: user.id, userName: user.user_name, result: 'Unlocked', reason, provider: 'Local' });
  await context.throttle.forgetAccount(normalized);
  context.broadcast.publish('user.changed', { userId: user.id });
  return { id: user.id, userName: user.user_name };
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

// TypeORM answers an UPDATE … RETURNING on postgres as [rows, affectedCount].
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : (result as T[]);
}

function firstRow<T>(result: unknown): T {
  const row = rowsOf<T>(result)[0];
  if (!row) throw new Error('the account to count an attempt on does not exist');
  return row;
}
