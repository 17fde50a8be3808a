import { AppError, checkPasswordRules, isRecentPassword, securitySettings, storeNewPassword, userWords, type AppContext, type FieldError, type Language, type PasswordPolicy } from '@gatehouse/core';
import { type Mailer } from '@gatehouse/core/mail';
import { revokeUserSessions } from '../../oidc/revoke.js';
import { formatUtc } from './refusal.js';
import { findMailRecipient } from './repository.js';

/**
 * Changes a user's password under the policy: every broken rule named at once, no reuse of recent
 * passwords, then the history kept, counters cleared, every session and refresh token of the user
 * revoked, and a "password changed" notice mailed.
 */
export async function changePassword(context: AppContext, mailer: Mailer, options: NewPasswordInput): Promise<void> {
  await assertAcceptablePassword(context, options);
  await applyNewPassword(context, mailer, options.userId, options.newPassword);
}

/** The `PasswordPolicy` security setting in force (a change made in the console applies to the next password). */
async function policyInForce(context: AppContext): Promise<PasswordPolicy> {
  return (await securitySettings(context).get()).PasswordPolicy;
}

/** A new password for a user, as typed; `language` is the caller's, for the reasons of a refusal. */
export interface NewPasswordInput {
  userId: string;
  newPassword: string;
  confirmPassword?: string;
  language?: Language;
}

/** Throws a 400 naming every broken rule (policy and strength, confirmation, reuse); stores nothing. */
export async function assertAcceptablePassword(context: AppContext, options: NewPasswordInput): Promise<void> {
  const policy = await policyInForce(context);
  const errors: FieldError[] = [];
  if (!options.newPassword) errors.push({ field: 'newPassword', code: 'password.required' });
  else {
    const userInputs = await userWords(context.dataSource, options.userId);
    errors.push(...(await checkPasswordRules(options.newPassword, policy, 'newPassword', { userInputs, language: options.language })));
  }
  if (options.confirmPassword !== undefined && options.confirmPassword !== options.newPassword) {
    errors.push({ field: 'confirmPassword', code: 'password.mismatch' });
  }
  if (errors.length === 0 && (await isRecentPassword(context.dataSource, context.passwords, options.userId, options.newPassword, policy))) {
    errors.push({ field: 'newPassword', code: 'password.reused', params: { count: policy.historySize } });
  }
  if (errors.length) throw new AppError('errors.validation', 400, {}, errors);
}

/** Stores an already accepted password and does what follows a change (revocation, notice). */
export async function applyNewPassword(context: AppContext, mailer: Mailer, userId: string, newPassword: string): Promise<void> {
  const policy = await policyInForce(context);
  const hash = await context.passwords.hash(newPassword);
  await context.dataSource.transaction((em) => storeNewPassword(em, userId, hash, policy));
  await revokeUserSessions(context, userId);
  const user = (await findMailRecipient(context, { userId }))!;
  mailer
    .send({
      to: user.email,
      template: 'password-changed',
      language: user.language,
      params: { name: user.first_name ?? user.user_name, date: formatUtc(new Date()) },
    })
    .catch((error: Error) => context.logger.warn({ err: error.message }, 'password-changed mail failed'));
}
