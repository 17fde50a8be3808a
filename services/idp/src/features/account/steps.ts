import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  acceptTotpCode,
  consumeUserToken,
  findUserToken,
  isPasswordExpired,
  issueUserToken,
  lockStatus,
  loadPasswordPolicy,
  recordUserFailure,
  sha256,
  updateTokenData,
  writeAuthenticationLog,
  type AppContext,
  type Mailer,
  type PasswordPolicy,
} from '@gatehouse/core';
import { changePassword } from './password-change.js';
import type { PasswordSignIn, SignInRefusal } from './sign-in.js';

/** An e-mailed sign-in code lives 5 minutes (spec). */
export const CODE_LIFETIME_SECONDS = 5 * 60;
/** A new code may be asked for every 30 s, at most 5 times per sign-in. */
export const RESEND_INTERVAL_SECONDS = 30;
export const MAX_RESENDS = 5;
/** A step's token lives as long as the sign-in it belongs to. */
const STEP_TOKEN_SECONDS = 60 * 60;

/** What a step carries from the password to the end of the sign-in. */
export interface StepContext {
  interaction: string;
  remember: boolean;
  returnUrl?: string | null;
  applicationName?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

interface CodeData extends StepContext {
  method: 'email' | 'totp';
  codeHash?: string;
  codeExpiresAt?: number;
  sentAt?: number;
  resends?: number;
}

export type NextStep =
  | { kind: 'done' }
  | { kind: 'expired-password'; token: string }
  | { kind: 'second-factor'; token: string; method: 'email' | 'totp'; expiresAt?: number };

interface StepUser {
  id: string;
  user_name: string;
  email: string;
  language: string;
  first_name: string | null;
  password_changed_at: Date | null;
  two_factor_enabled: boolean;
  totp_enabled_at: Date | null;
  locked: boolean;
  lockout_end: Date | null;
  second_factor_required: boolean;
}

// The user, and whether the second factor is required: by the user, by an enrolled authenticator
// app, or by any tenant the user belongs to (directly or through a group). One round trip.
const USER_SQL = `
  SELECT u.id, u.user_name, u.email, u.language, u.first_name, u.password_changed_at, u.two_factor_enabled,
         u.totp_enabled_at, u.locked, u.lockout_end,
         u.two_factor_enabled OR u.totp_enabled_at IS NOT NULL OR EXISTS (
           SELECT 1 FROM tenant_members tm JOIN tenants t ON t.id = tm.tenant_id
            WHERE t.required_two_mode_authentification
              AND (tm.user_id = u.id OR tm.group_id IN (SELECT group_id FROM group_members WHERE user_id = u.id))
         ) AS second_factor_required
    FROM users u WHERE u.id = $1`;

const codeHash = (tokenId: string, code: string) => sha256(`${tokenId}:${code}`);
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The steps of a sign-in after the password: the expired-password change and the second factor
 * (e-mailed code or authenticator app). Each step is bound to its sign-in by a token (sent to the
 * page) and to the browser by the provider's interaction.
 */
export class SignInSteps {
  private readonly policies: CachedPolicy;

  constructor(
    private readonly context: AppContext,
    private readonly mailer: Mailer,
    private readonly signIn: PasswordSignIn,
  ) {
    this.policies = new CachedPolicy(context);
  }

  private async user(userId: string): Promise<StepUser> {
    const [user] = await this.context.dataSource.query(USER_SQL, [userId]);
    return user;
  }

  /** What comes after a right password: a password change, a second factor, or nothing. */
  async afterPassword(userId: string, step: StepContext): Promise<NextStep> {
    const [user, policy] = await Promise.all([this.user(userId), this.policies.get()]);
    if (isPasswordExpired(user.password_changed_at, policy)) {
      const { token } = await issueUserToken(this.context, { userId, purpose: 'ExpiredPassword', ttlSeconds: STEP_TOKEN_SECONDS, data: { ...step } });
      return { kind: 'expired-password', token };
    }
    return this.afterPasswordChecks(user, step);
  }

  private async afterPasswordChecks(user: StepUser, step: StepContext): Promise<NextStep> {
    if (!user.second_factor_required) return { kind: 'done' };
    const method = user.totp_enabled_at ? 'totp' : 'email';
    const { id, token } = await issueUserToken(this.context, {
      userId: user.id,
      purpose: 'SignInCode',
      ttlSeconds: STEP_TOKEN_SECONDS,
      data: { ...step, method, resends: 0 } satisfies CodeData,
    });
    if (method === 'totp') return { kind: 'second-factor', token, method };
    const expiresAt = await this.sendCode(user, id, { ...step, method, resends: 0 });
    return { kind: 'second-factor', token, method, expiresAt };
  }

  /** A fresh 6-digit code replaces any previous one of this sign-in, and is mailed. */
  private async sendCode(user: StepUser, tokenId: string, data: CodeData): Promise<number> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = Date.now();
    const next: CodeData = { ...data, codeHash: codeHash(tokenId, code), codeExpiresAt: now + CODE_LIFETIME_SECONDS * 1000, sentAt: now };
    await updateTokenData(this.context, tokenId, next as unknown as Record<string, unknown>);
    await this.mailer.send({
      to: user.email,
      template: 'sign-in-code',
      language: user.language,
      params: { name: user.first_name ?? user.user_name, code, minutes: CODE_LIFETIME_SECONDS / 60 },
    });
    return next.codeExpiresAt!;
  }

  /** "Resend Code": rate-limited; the previous code stops working. */
  async resendCode(token: string, interaction: string): Promise<{ ok: true; expiresAt: number } | SignInRefusal> {
    const row = await findUserToken(this.context, token, 'SignInCode');
    const data = row?.context as CodeData | undefined;
    if (!row || !data || data.interaction !== interaction) return { ok: false, status: 400, code: 'account.interaction_expired' };
    const waited = Date.now() - (data.sentAt ?? 0);
    if (waited < RESEND_INTERVAL_SECONDS * 1000 || (data.resends ?? 0) >= MAX_RESENDS) {
      return { ok: false, status: 429, code: 'account.resend_too_soon' };
    }
    const user = await this.user(row.user_id);
    const expiresAt = await this.sendCode(user, row.id, { ...data, method: 'email', resends: (data.resends ?? 0) + 1 });
    return { ok: true, expiresAt };
  }

  /**
   * Checks a second-factor code for the sign-in its token belongs to. Expired → "Code expired!";
   * wrong → "Invalid code", counted toward the same lockout as wrong passwords.
   */
  async verifyCode(token: string, code: string, interaction: string): Promise<{ ok: true; userId: string; step: StepContext } | SignInRefusal> {
    const row = await findUserToken(this.context, token, 'SignInCode');
    const data = row?.context as CodeData | undefined;
    if (!row || !data || data.interaction !== interaction) return { ok: false, status: 400, code: 'account.interaction_expired' };
    const user = await this.user(row.user_id);
    const lock = lockStatus({ locked: user.locked, lockoutEnd: user.lockout_end });
    if (lock !== 'open') {
      return lock === 'permanent'
        ? { ok: false, status: 423, code: 'account.locked_permanently' }
        : { ok: false, status: 423, code: 'account.locked', params: { until: `${user.lockout_end!.toISOString().slice(0, 16).replace('T', ' ')} UTC` }, lockedUntil: user.lockout_end! };
    }
    const trimmed = String(code ?? '').trim();
    if (!/^\d{6}$/.test(trimmed)) return { ok: false, status: 400, code: 'account.code_required' };

    const totpOk = user.totp_enabled_at ? await acceptTotpCode(this.context.dataSource, this.context.secrets, user.id, trimmed) : false;
    const mailedOk = !totpOk && data.codeHash !== undefined && (data.codeExpiresAt ?? 0) > Date.now() && sameHash(data.codeHash, codeHash(row.id, trimmed));
    if (!totpOk && !mailedOk) {
      if (!user.totp_enabled_at && data.codeHash && (data.codeExpiresAt ?? 0) <= Date.now()) {
        return { ok: false, status: 400, code: 'account.code_expired' };
      }
      const outcome = await recordUserFailure(this.context.dataSource, user.id);
      await writeAuthenticationLog(this.context.dataSource, {
        userId: user.id,
        userName: user.user_name,
        result: outcome.kind === 'counted' ? 'Failure' : outcome.kind.includes('permanent') ? 'FullUserLocked' : 'UserLocked',
        reason: 'Invalid second-factor code',
        returnUrl: data.returnUrl,
        applicationName: data.applicationName,
        ip: data.ip,
      });
      if (outcome.kind === 'counted') return { ok: false, status: 401, code: 'account.invalid_code', attemptsLeft: outcome.attemptsLeft };
      if (outcome.kind === 'locked' || outcome.kind === 'already_locked') {
        return { ok: false, status: 423, code: 'account.locked', params: { until: `${outcome.until.toISOString().slice(0, 16).replace('T', ' ')} UTC` }, lockedUntil: outcome.until };
      }
      this.context.broadcast.publish('user.changed', { userId: user.id });
      return { ok: false, status: 423, code: 'account.locked_permanently' };
    }
    // Single use: of two requests with the right code, one wins.
    if (!(await consumeUserToken(this.context, row.id))) return { ok: false, status: 400, code: 'account.interaction_expired' };
    await this.signIn.complete({ id: user.id, userName: user.user_name }, data, totpOk ? 'Authenticator code verified' : 'E-mailed code verified');
    return { ok: true, userId: user.id, step: data };
  }

  /** The expired-password step: a new password under the policy, then the rest of the sign-in. */
  async changeExpiredPassword(
    token: string,
    interaction: string,
    newPassword: string,
    confirmPassword: string | undefined,
  ): Promise<{ ok: true; userId: string; step: StepContext; next: NextStep } | SignInRefusal> {
    const row = await findUserToken(this.context, token, 'ExpiredPassword');
    const data = row?.context as StepContext | undefined;
    if (!row || !data || data.interaction !== interaction) return { ok: false, status: 400, code: 'account.interaction_expired' };
    await changePassword(this.context, this.mailer, { userId: row.user_id, newPassword, confirmPassword });
    if (!(await consumeUserToken(this.context, row.id))) return { ok: false, status: 400, code: 'account.interaction_expired' };
    const user = await this.user(row.user_id);
    const next = await this.afterPasswordChecks(user, data);
    if (next.kind === 'done') await this.signIn.complete({ id: user.id, userName: user.user_name }, data, 'Expired password changed');
    return { ok: true, userId: user.id, step: data, next };
  }
}

/**
 * The password policy, read at most every 30 s: every sign-in checks the password's age, and the
 * policy changes rarely (a change applies to sign-ins within half a minute).
 */
class CachedPolicy {
  private value: { policy: Promise<PasswordPolicy>; at: number } | undefined;

  constructor(private readonly context: AppContext) {}

  get(): Promise<PasswordPolicy> {
    if (!this.value || this.value.at + 30_000 < Date.now()) {
      const policy = loadPasswordPolicy(this.context.dataSource);
      this.value = { policy, at: Date.now() };
      // A failed read is not kept: the next sign-in tries again.
      policy.catch(() => (this.value = undefined));
    }
    return this.value.policy;
  }
}
