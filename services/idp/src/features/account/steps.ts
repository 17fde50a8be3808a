import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  acceptTotpCode,
  consumeUserToken,
  findUserToken,
  isPasswordExpired,
  issueUserToken,
  loadPasswordPolicy,
  recordUserFailure,
  refundUserAttempt,
  reserveUserAttempt,
  sha256,
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
      data: { ...step, method, resends: 0, sentAt: Date.now() } satisfies CodeData,
    });
    if (method === 'totp') return { kind: 'second-factor', token, method };
    const expiresAt = await this.sendCode(user, id);
    return { kind: 'second-factor', token, method, expiresAt };
  }

  /** A fresh 6-digit code replaces any previous one of this sign-in, and is mailed. */
  private async sendCode(user: StepUser, tokenId: string): Promise<number> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeExpiresAt = Date.now() + CODE_LIFETIME_SECONDS * 1000;
    // Merged into what the step holds, so the resend count claimed alongside is kept.
    await this.context.dataSource.query('UPDATE user_tokens SET context = context || $2::jsonb WHERE id = $1', [
      tokenId,
      JSON.stringify({ codeHash: codeHash(tokenId, code), codeExpiresAt }),
    ]);
    await this.mailer.send({
      to: user.email,
      template: 'sign-in-code',
      language: user.language,
      params: { name: user.first_name ?? user.user_name, code, minutes: CODE_LIFETIME_SECONDS / 60 },
    });
    return codeExpiresAt;
  }

  /** Claims one resend for the step, 30 s after the last mail and within 5, in one compare-and-set. */
  private async claimResend(tokenId: string): Promise<boolean> {
    const now = Date.now();
    const result = await this.context.dataSource.query(
      `UPDATE user_tokens SET context = context || jsonb_build_object('sentAt', $2::bigint, 'resends', COALESCE((context->>'resends')::int, 0) + 1)
        WHERE id = $1 AND consumed_at IS NULL AND COALESCE((context->>'sentAt')::bigint, 0) <= $3 AND COALESCE((context->>'resends')::int, 0) < $4`,
      [tokenId, now, now - RESEND_INTERVAL_SECONDS * 1000, MAX_RESENDS],
    );
    return Number(result[1]) === 1;
  }

  /**
   * "Resend Code": a new e-mailed code, at most every 30 s and 5 times per sign-in (counted
   * atomically, so parallel requests cannot send more); the previous code stops working. A sign-in
   * whose second factor is the authenticator app never falls back to a mailed code.
   */
  async resendCode(token: string, interaction: string): Promise<{ ok: true; expiresAt: number } | SignInRefusal> {
    const row = await findUserToken(this.context, token, 'SignInCode');
    const data = row?.context as CodeData | undefined;
    if (!row || !data || data.interaction !== interaction) return { ok: false, status: 400, code: 'account.interaction_expired' };
    const user = await this.user(row.user_id);
    if (data.method !== 'email' || user.totp_enabled_at) return { ok: false, status: 400, code: 'account.resend_not_available' };
    if (!(await this.claimResend(row.id))) {
      const wait = Math.ceil(((data.sentAt ?? 0) + RESEND_INTERVAL_SECONDS * 1000 - Date.now()) / 1000);
      return { ok: false, status: 429, code: 'account.resend_too_soon', retryAfter: Math.max(1, Math.min(wait, RESEND_INTERVAL_SECONDS)) };
    }
    const expiresAt = await this.sendCode(user, row.id);
    return { ok: true, expiresAt };
  }

  /**
   * Checks a second-factor code for the sign-in its token belongs to, by the step's own method
   * only. Expired → "Code expired!"; wrong → "Invalid code", counted toward the same lockout as
   * wrong passwords, and reserved before it is checked, like them.
   */
  async verifyCode(
    token: string,
    code: string,
    interaction: string,
  ): Promise<{ ok: true; userId: string; step: StepContext } | SignInRefusal> {
    const row = await findUserToken(this.context, token, 'SignInCode');
    const data = row?.context as CodeData | undefined;
    if (!row || !data || data.interaction !== interaction) return { ok: false, status: 400, code: 'account.interaction_expired' };
    const trimmed = String(code ?? '').trim();
    if (!/^\d{6}$/.test(trimmed)) return { ok: false, status: 400, code: 'account.code_required' };
    const user = await this.user(row.user_id);
    const account = user.user_name.toLowerCase();
    await this.context.throttle.assertMayAttempt(data.ip, account);
    const reservation = await reserveUserAttempt(this.context.dataSource, user.id);
    if (reservation.kind !== 'reserved') return this.signIn.refusalFor(reservation);

    let valid: boolean;
    try {
      valid = await this.codeMatches(user, row.id, data, trimmed);
    } catch (error) {
      await refundUserAttempt(this.context.dataSource, user.id);
      throw error;
    }
    if (!valid) {
      if (data.method === 'email' && data.codeHash && (data.codeExpiresAt ?? 0) <= Date.now()) {
        await refundUserAttempt(this.context.dataSource, user.id);
        return { ok: false, status: 400, code: 'account.code_expired' };
      }
      const outcome = await recordUserFailure(this.context.dataSource, user.id);
      await this.context.throttle.failed(data.ip, account);
      await writeAuthenticationLog(this.context.dataSource, {
        userId: user.id,
        userName: user.user_name,
        result: outcome.kind === 'counted' ? 'Failure' : outcome.kind.includes('permanent') ? 'FullUserLocked' : 'UserLocked',
        reason: 'Invalid second-factor code',
        returnUrl: data.returnUrl,
        applicationName: data.applicationName,
        ip: data.ip,
      });
      if (outcome.kind === 'permanently_locked') this.context.broadcast.publish('user.changed', { userId: user.id });
      return outcome.kind === 'counted'
        ? { ok: false, status: 401, code: 'account.invalid_code', attemptsLeft: outcome.attemptsLeft }
        : this.signIn.refusalFor(outcome);
    }
    await refundUserAttempt(this.context.dataSource, user.id);
    // Single use: of two requests with the right code, one wins.
    if (!(await consumeUserToken(this.context, row.id))) return { ok: false, status: 400, code: 'account.interaction_expired' };
    const refused = await this.signIn.complete({ id: user.id, userName: user.user_name }, data, data.method === 'totp' ? 'Authenticator code verified' : 'E-mailed code verified');
    return refused ?? { ok: true, userId: user.id, step: data };
  }

  /** The step's own factor: the authenticator app's code for a TOTP step, the mailed code otherwise. */
  private async codeMatches(user: StepUser, tokenId: string, data: CodeData, code: string): Promise<boolean> {
    if (data.method === 'totp') {
      return Boolean(user.totp_enabled_at) && acceptTotpCode(this.context.dataSource, this.context.secrets, user.id, code);
    }
    return data.codeHash !== undefined && (data.codeExpiresAt ?? 0) > Date.now() && sameHash(data.codeHash, codeHash(tokenId, code));
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
    if (next.kind === 'done') {
      const refused = await this.signIn.complete({ id: user.id, userName: user.user_name }, data, 'Expired password changed');
      if (refused) return refused;
    }
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
