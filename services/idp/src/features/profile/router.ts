import Router from '@koa/router';
import { AppError, generateTotpSecret, matchingTotpStep, parseInput, totpUri, type AppContext, type Mailer } from '@gatehouse/core';
import { z } from 'zod';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { PasswordReset } from '../account/password-reset.js';
import { koaAccountAuth } from './koa-account-auth.js';

const codeSchema = z.object({ code: z.string().trim().regex(/^\d{6}$/) });

/** `/api/v1/profile/*`: what a signed-in user does for themself. */
export function profileRoutes(context: AppContext, host: ProviderHost, mailer: Mailer): Router {
  const router = new Router({ prefix: '/api/v1/profile' });
  router.use(koaAccountAuth(host));
  const reset = new PasswordReset(context, mailer);
  const t = (lng: string, key: string) => context.i18n.t(key, { lng }) as string;

  const me = async (accountId: string) => {
    const [user] = await context.dataSource.query(
      'SELECT id, user_name, email, language, totp_secret_encrypted, totp_enabled_at FROM users WHERE id = $1',
      [accountId],
    );
    if (!user) throw new AppError('errors.unauthorized', 401);
    return user as { id: string; user_name: string; email: string; language: string; totp_secret_encrypted: string | null; totp_enabled_at: Date | null };
  };

  /** Sends the signed-in user a reset link (the "Change password" button). */
  router.get('/resetPassword/:name', async (ctx) => {
    const user = await me(ctx.state.accountId);
    if (user.user_name.toLowerCase() !== ctx.params.name!.trim().toLowerCase()) throw new AppError('errors.forbidden', 403);
    const result = await reset.request(user.user_name, user.language);
    if (!result.ok) throw new AppError(result.code, result.status);
    ctx.body = { success: true, errors: [], message: t(ctx.state.language, 'account.reset_sent') };
  });

  /** Starts enrolling an authenticator app: a new secret (stored encrypted) and its otpauth URI. */
  router.post('/totp', async (ctx) => {
    const user = await me(ctx.state.accountId);
    if (user.totp_enabled_at) throw new AppError('account.totp_already_enrolled', 409);
    const secret = generateTotpSecret();
    await context.dataSource.query('UPDATE users SET totp_secret_encrypted = $2, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [
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
    const step = matchingTotpStep(context.secrets.decrypt(user.totp_secret_encrypted), code);
    if (step === null) throw new AppError('account.invalid_code', 400);
    await context.dataSource.query('UPDATE users SET totp_enabled_at = now(), totp_last_step = $2 WHERE id = $1', [user.id, step]);
    ctx.body = { success: true, errors: [] };
  });

  /** Removes the authenticator app, proven with one of its codes. */
  router.post('/totp/disable', async (ctx) => {
    const { code } = parseInput(codeSchema, ctx.request.body ?? {});
    const user = await me(ctx.state.accountId);
    if (!user.totp_secret_encrypted || !user.totp_enabled_at) throw new AppError('account.no_totp_enrolment', 409);
    if (matchingTotpStep(context.secrets.decrypt(user.totp_secret_encrypted), code) === null) throw new AppError('account.invalid_code', 400);
    await context.dataSource.query('UPDATE users SET totp_secret_encrypted = NULL, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [user.id]);
    ctx.body = { success: true, errors: [] };
  });

  return router;
}
