import {
  DEFAULT_LOCKOUT_POLICY,
  User,
  lockStatus,
  recordUnknownFailure,
  recordUserFailure,
  recordUserSuccess,
  unknownLockState,
  writeAuthenticationLog,
  type AppContext,
  type FailureOutcome,
  type LockoutPolicy,
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
}

export type SignInResult = { ok: true; user: User } | SignInRefusal;

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

  async signIn(request: SignInRequest): Promise<SignInResult> {
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

    const user = await db.getRepository(User).findOneBy({ normalizedUserName: normalized });
    const state = user ?? (await unknownLockState(db, normalized));
    const lock = lockStatus(state);
    // Always spend one verification, whatever the account's state.
    const valid = user?.passwordHash ? await passwords.verify(user.passwordHash, request.password) : await passwords.verifyNothing(request.password);

    if (lock !== 'open') {
      await log(lock === 'permanent' ? 'FullUserLocked' : 'UserLocked', 'Sign-in attempt on a locked account', user?.id);
      return this.refusalFor(lock === 'permanent' ? { kind: 'already_permanently_locked' } : { kind: 'already_locked', until: state.lockoutEnd! });
    }

    if (!valid) {
      const outcome = user ? await recordUserFailure(db, user.id, this.policy) : await recordUnknownFailure(db, normalized, this.policy);
      // A permanent lock must end this user's tokens on every node at once.
      if (user && outcome.kind === 'permanently_locked') this.context.broadcast.publish('user.changed', { userId: user.id });
      const result = outcome.kind === 'locked' || outcome.kind === 'already_locked' ? 'UserLocked' : outcome.kind.includes('permanent') ? 'FullUserLocked' : 'Failure';
      await log(result, user ? 'Invalid password' : 'Unknown user name', user?.id);
      return this.refusalFor(outcome);
    }

    if (user!.draft) {
      await log('Failure', 'Draft user', user!.id);
      return { ok: false, status: 403, code: 'account.pending_approval' };
    }

    await recordUserSuccess(db, user!.id);
    if (passwords.needsRehash(user!.passwordHash!)) {
      const rehashed = await passwords.hash(request.password);
      await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user!.id, rehashed]);
    }
    await log('Success', 'Password verified', user!.id);
    return { ok: true, user: user! };
  }

  private refusalFor(outcome: FailureOutcome): SignInRefusal {
    switch (outcome.kind) {
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
      case 'permanently_locked':
      case 'already_permanently_locked':
        return { ok: false, status: 423, code: 'account.locked_permanently' };
    }
  }
}

function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
