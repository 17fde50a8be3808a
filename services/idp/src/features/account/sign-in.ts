import {
  DEFAULT_LOCKOUT_POLICY,
  recordSignInSuccess,
  recordUnknownFailure,
  recordUserFailure,
  refundUnknownAttempt,
  refundUserAttempt,
  reserveUnknownAttempt,
  reserveUserAttempt,
  sqlClient,
  writeAuthenticationLog,
  type AppContext,
  type FailureOutcome,
  type LockoutPolicy,
  type Reservation,
} from '@gatehouse/core';

export interface SignInRequest {
  userName: string;
  password: string;
  returnUrl?: string | null;
  applicationName?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** Why a sign-in was refused: `code` is the i18n key of the message shown to the user. */
export interface SignInRefusal {
  ok: false;
  status: number;
  code: string;
  params?: Record<string, unknown>;
  attemptsLeft?: number;
  lockedUntil?: Date;
  externalLoginRequired?: boolean;
  /** Seconds to wait before trying again (429). */
  retryAfter?: number;
}

/** What a successful sign-in knows of the user. */
export interface SignInUser {
  id: string;
  userName: string;
  passwordHash: string | null;
  draft: boolean;
  locked: boolean;
  lockoutEnd: Date | null;
}

export type SignInResult = { ok: true; user: SignInUser } | SignInRefusal;

/** Group users sign in with Microsoft only: their user name is in a group domain or holds the fragment. */
export function requiresProfessionalAccount(context: AppContext, userName: string): boolean {
  const name = userName.trim().toLowerCase();
  const domain = name.split('@')[1] ?? '';
  const { groupDomains, groupDomainFragment } = context.config.signIn;
  return (
    groupDomains.some((d) => domain === d || domain.endsWith(`.${d}`)) ||
    Boolean(groupDomainFragment && name.includes(groupDomainFragment.toLowerCase()))
  );
}

/**
 * Password sign-in with the spec's lockout: five failures in a row lock the account for five
 * minutes; the third lock is permanent. An unknown user name takes the same path (a dummy
 * verification and its own counter), so answer, status and timing do not reveal accounts.
 */
export class PasswordSignIn {
  constructor(
    private readonly context: AppContext,
    private readonly policy: LockoutPolicy = DEFAULT_LOCKOUT_POLICY,
  ) {}

  /** Checks the password and, when nothing else is asked of the user, completes the sign-in. */
  async signIn(request: SignInRequest): Promise<SignInResult> {
    const result = await this.verify(request);
    if (!result.ok) return result;
    return (await this.complete(result.user, request, 'Password verified')) ?? result;
  }

  /**
   * Checks the password only. The failure counter is not reset here: it resets when the whole
   * sign-in completes, so re-entering the password cannot buy more guesses at a second factor.
   */
  async verify(request: SignInRequest): Promise<SignInResult> {
    const { dataSource: db, passwords } = this.context;
    const userName = request.userName.trim();
    const normalized = userName.toLowerCase();
    const log = (result: Parameters<typeof writeAuthenticationLog>[1]['result'], reason: string, userId?: string) =>
      writeAuthenticationLog(db, {
        userId,
        userName,
        result,
        reason,
        provider: 'Local',
        returnUrl: request.returnUrl,
        applicationName: request.applicationName,
        ip: request.ip,
        userAgent: request.userAgent,
      });

    if (requiresProfessionalAccount(this.context, userName)) {
      await log('Failure', 'Group user must sign in with Microsoft');
      return { ok: false, status: 403, code: 'account.use_professional_account', externalLoginRequired: true };
    }

    await this.context.throttle.assertMayAttempt(request.ip, normalized);
    this.context.passwords.assertCapacity();
    const user = await findUserForSignIn(this.context, normalized);
    // The attempt is counted before the password is checked, so parallel guesses cannot outrun the lock.
    const reservation = user ? await reserveUserAttempt(db, user.id, this.policy) : await reserveUnknownAttempt(db, normalized, this.policy);
    const refund = () => (user ? refundUserAttempt(db, user.id) : refundUnknownAttempt(db, normalized));
    if (reservation.kind === 'busy') {
      await log('Failure', 'Sign-in attempt while others are being checked', user?.id);
      return this.refusalFor(reservation);
    }
    let valid: boolean;
    try {
      // Always spend one verification, whatever the account's state.
      valid = user?.passwordHash ? await passwords.verify(user.passwordHash, request.password) : await passwords.verifyNothing(request.password);
    } catch (error) {
      if (reservation.kind === 'reserved') await refund();
      throw error;
    }

    if (reservation.kind !== 'reserved') {
      await log(reservation.kind === 'permanent' ? 'FullUserLocked' : 'UserLocked', 'Sign-in attempt on a locked account', user?.id);
      return this.refusalFor(reservation);
    }

    if (!valid) {
      const outcome = user ? await recordUserFailure(db, user.id, this.policy) : await recordUnknownFailure(db, normalized, this.policy);
      await this.context.throttle.failed(request.ip, normalized);
      // A permanent lock must end this user's tokens on every node at once.
      if (user && outcome.kind === 'permanently_locked') this.context.broadcast.publish('user.changed', { userId: user.id });
      const result = outcome.kind === 'locked' || outcome.kind === 'already_locked' ? 'UserLocked' : outcome.kind.includes('permanent') ? 'FullUserLocked' : 'Failure';
      await log(result, user ? 'Invalid password' : 'Unknown user name', user?.id);
      return this.refusalFor(outcome);
    }
    // The right password gives its reservation back; the count itself is cleared only when the whole
    // sign-in completes, so re-entering the password cannot buy more guesses at a second factor.
    await refund();

    if (user!.draft) {
      await log('Failure', 'Draft user', user!.id);
      return { ok: false, status: 403, code: 'account.pending_approval' };
    }

    if (passwords.needsRehash(user!.passwordHash!)) {
      await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user!.id, await passwords.hash(request.password)]);
    }
    return { ok: true, user: user! };
  }

  /**
   * The sign-in succeeded: counters cleared, last sign-in dated and the success logged, in one
   * round trip, unless the account was locked meanwhile (by a parallel attempt, or an
   * administrator): then the refusal to answer.
   */
  async complete(
    user: { id: string; userName: string },
    request: Omit<SignInRequest, 'password' | 'userName'>,
    reason: string,
  ): Promise<SignInRefusal | undefined> {
    const done = await recordSignInSuccess(this.context.dataSource, { userId: user.id, userName: user.userName, reason, provider: 'Local', ...request });
    if (!done) {
      const [row] = await this.context.dataSource.query('SELECT locked, lockout_end FROM users WHERE id = $1', [user.id]);
      await writeAuthenticationLog(this.context.dataSource, {
        userId: user.id,
        userName: user.userName,
        result: row?.locked ? 'FullUserLocked' : 'UserLocked',
        reason: 'Account locked during the sign-in',
        provider: 'Local',
        returnUrl: request.returnUrl,
        applicationName: request.applicationName,
        ip: request.ip,
        userAgent: request.userAgent,
      });
      return this.refusalFor(row?.locked || !row?.lockout_end ? { kind: 'permanent' } : { kind: 'locked', until: row.lockout_end });
    }
    await this.context.throttle.succeeded(request.ip, user.userName.trim().toLowerCase());
    return undefined;
  }

  /** The answer to a refused attempt, in the spec's words. */
  refusalFor(outcome: FailureOutcome | Exclude<Reservation, { kind: 'reserved' }>): SignInRefusal {
    switch (outcome.kind) {
      case 'busy':
        return { ok: false, status: 429, code: 'account.too_many_attempts', retryAfter: 1 };
      case 'counted':
        return {
          ok: false,
          status: 401,
          code: 'account.invalid_credentials',
          params: { count: outcome.attemptsLeft },
          attemptsLeft: outcome.attemptsLeft,
        };
      case 'locked':
      case 'already_locked':
        return {
          ok: false,
          status: 423,
          code: 'account.locked',
          params: { until: formatUtc(outcome.until) },
          lockedUntil: outcome.until,
        };
      case 'permanent':
      case 'permanently_locked':
      case 'already_permanently_locked':
        return { ok: false, status: 423, code: 'account.locked_permanently' };
    }
  }
}

/** The fields sign-in needs, by normalized user name (one prepared-shape query, no ORM mapping). */
async function findUserForSignIn(context: AppContext, normalized: string): Promise<SignInUser | undefined> {
  const { rows } = await sqlClient(context.dataSource, { prepare: !context.pglite }).query<Record<string, unknown>>(
    `SELECT id, user_name, password_hash, draft, locked, lockout_end FROM users WHERE normalized_user_name = $1`,
    [normalized],
    'sign_in_user',
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id as string,
    userName: row.user_name as string,
    passwordHash: row.password_hash as string | null,
    draft: row.draft as boolean,
    locked: row.locked as boolean,
    lockoutEnd: row.lockout_end as Date | null,
  };
}

export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
