import Router from '@koa/router';
import {
  AppError,
  acceptTotpCode,
  generateTotpSecret,
  matchingTotpStep,
  parseInput,
  recordUserFailure,
  refundUserAttempt,
  reserveUserAttempt,
  totpUri,
  writeAuthenticationLog,
  type AppContext,
  type Mailer,
} from '@gatehouse/core';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { PasswordReset } from '../account/password-reset.js';
import { PasswordSignIn } from '../account/sign-in.js';
import { koaAccountAuth, sessionAuthTime } from './koa-account-auth.js';

const codeSchema = z.object({ code: z.string().trim().regex(/^\d{6}$/) });
const enrolSchema = z.object({ password: z.string().min(1).max(1024).optional() }).strict();

/** A second factor may be added without the password only this long after signing in. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

interface Me {
  id: string;
  user_name: string;
  email: string;
  language: string;
  password_hash: string | null;
  totp_secret_encrypted: string | null;
  totp_enabled_at: Date | null;
}

/** `/api/v1/profile/*`: what a signed-in user does for themself, with a token issued to the portal. */
export function profileRoutes(context: AppContext, host: ProviderHost, mailer: Mailer): Router {
  const router = new Router({ prefix: '/api/v1/profile' });
  router.use(koaAccountAuth(context, host));
  const reset = new PasswordReset(context, mailer);
  const signIn = new PasswordSignIn(context);
  const db = context.dataSource;
  const t = (lng: string, key: string) => context.i18n.t(key, { lng }) as string;

  const me = async (accountId: string): Promise<Me> => {
    const [user] = await db.query(
      'SELECT id, user_name, email, language, password_hash, totp_secret_encrypted, totp_enabled_at FROM users WHERE id = $1',
      [accountId],
    );
    if (!user) throw new AppError('errors.unauthorized', 401);
    return user as Me;
  };

  /**
   * A secret checked for a change of the account's factors: reserved before it is checked and
   * counted toward the sign-in lockout when wrong, exactly like a password or code at sign-in.
   */
  const proven = async (ctx: Context, user: Me, reason: string, check: () => Promise<boolean> | boolean) => {
    const account = user.user_name.toLowerCase();
    await context.throttle.assertMayAttempt(ctx.ip, account);
    const reservation = await reserveUserAttempt(db, user.id);
    if (reservation.kind !== 'reserved') return refuse(signIn.refusalFor(reservation));
    let valid: boolean;
    try {
      valid = await check();
    } catch (error) {
      await refundUserAttempt(db, user.id);
      throw error;
    }
    if (valid) return refundUserAttempt(db, user.id);
    const outcome = await recordUserFailure(db, user.id);
    await context.throttle.failed(ctx.ip, account);
    await writeAuthenticationLog(db, {
      userId: user.id,
      userName: user.user_name,
      result: outcome.kind === 'counted' ? 'Failure' : outcome.kind.includes('permanent') ? 'FullUserLocked' : 'UserLocked',
      reason,
      ip: ctx.ip,
      userAgent: ctx.get('user-agent'),
    });
    if (outcome.kind === 'counted') throw new AppError(reason === 'Invalid password' ? 'account.invalid_credentials' : 'account.invalid_code', 400, { count: outcome.attemptsLeft });
    // A lock ends the user's sessions and tokens on every node.
    context.broadcast.publish('user.changed', { userId: user.id });
    return refuse(signIn.refusalFor(outcome));
  };
  const refuse = (refusal: { status: number; code: string; params?: Record<string, unknown> }): never => {
    throw new AppError(refusal.code, refusal.status, refusal.params);
  };

  /** Sends the signed-in user a reset link (the "Change password" button). */
  router.get('/resetPassword/:name', async (ctx) => {
    const user = await me(ctx.state.accountId);
    if (user.user_name.toLowerCase() !== ctx.params.name!.trim().toLowerCase()) throw new AppError('errors.forbidden', 403);
    const result = await reset.request(user.user_name, user.language);
    if (!result.ok) throw new AppError(result.code, result.status);
    ctx.body = { success: true, errors: [], message: t(ctx.state.language, 'account.reset_sent') };
  });

  /**
   * Starts enrolling an authenticator app: a new secret (stored encrypted) and its otpauth URI.
   * Only within ten minutes of signing in, or with the current password: a stolen or forgotten
   * token alone cannot put someone else's authenticator on the account.
   */
  router.post('/totp', async (ctx) => {
    const { password } = parseInput(enrolSchema, ctx.request.body ?? {});
    const user = await me(ctx.state.accountId);
    if (user.totp_enabled_at) throw new AppError('account.totp_already_enrolled', 409);
    const authTime = await sessionAuthTime(host, ctx.state.sessionUid);
    const recent = authTime !== undefined && Date.now() / 1000 - authTime <= RECENT_SIGN_IN_SECONDS;
    if (!recent) {
      if (!password) throw new AppError('account.reauthentication_required', 403);
      context.passwords.assertCapacity();
      await proven(ctx, user, 'Invalid password', () => context.passwords.verify(user.password_hash, password));
    }
    const secret = generateTotpSecret();
    await db.query('UPDATE users SET totp_secret_encrypted = $2, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [
      user.id,
      context.secrets.encrypt(secret),
    ]);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { secret, otpauthUri: totpUri(secret, user.user_name) };
  });

  /** Confirms the enrolment with a first code from the app; from then on it is the second factor. */
  router.post('/totp/confirm', async (ctx) => {
    const { code } = parseInput(codeSchema, ctx.request.body ?? {});
    const user = await me(ctx.state.accountId);
    if (!user.totp_secret_encrypted || user.totp_enabled_at) throw new AppError('account.no_totp_enrolment', 409);
    let step: number | null = null;
    await proven(ctx, user, 'Invalid authenticator code', () => (step = matchingTotpStep(context.secrets.decrypt(user.totp_secret_encrypted!), code)) !== null);
    // Only a pending enrolment is confirmed: of two parallel confirmations, one wins.
    const [, confirmed] = await db.query(
      'UPDATE users SET totp_enabled_at = now(), totp_last_step = $2 WHERE id = $1 AND totp_enabled_at IS NULL AND totp_secret_encrypted = $3',
      [user.id, step, user.totp_secret_encrypted],
    );
    if (!confirmed) throw new AppError('account.no_totp_enrolment', 409);
    ctx.body = { success: true, errors: [] };
  });

  /** Removes the authenticator app, proven with one of its codes not used before. */
  router.post('/totp/disable', async (ctx) => {
    const { code } = parseInput(codeSchema, ctx.request.body ?? {});
    const user = await me(ctx.state.accountId);
    if (!user.totp_secret_encrypted || !user.totp_enabled_at) throw new AppError('account.no_totp_enrolment', 409);
    await proven(ctx, user, 'Invalid authenticator code', () => acceptTotpCode(db, context.secrets, user.id, code));
    await db.query('UPDATE users SET totp_secret_encrypted = NULL, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [user.id]);
    ctx.body = { success: true, errors: [] };
  });

  return router;
}
