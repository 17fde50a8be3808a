import { LANGUAGES, consumeUserToken, findUserToken, issueUserToken, revokeUserTokens, type AppContext, type Language } from '@gatehouse/core';
import { type Mailer } from '@gatehouse/core/mail';
import { applyNewPassword, assertAcceptablePassword } from './password-change.js';
import { requiresProfessionalAccount } from './password-steps.js';
import { refusal, type SignInRefusal } from './refusal.js';
import { findMailRecipient, type MailRecipient } from './repository.js';

/** A reset link works once, for an hour (documented). */
export const RESET_TOKEN_SECONDS = 60 * 60;

/**
 * Forgot password: a single-use link by mail. The answer does not tell whether the account exists
 * (locked and draft accounts get the spec's own messages).
 */
export class PasswordReset {
  constructor(
    private readonly context: AppContext,
    private readonly mailer: Mailer,
  ) {}

  async request(userName: string, language: string | undefined, returnUrl?: string): Promise<{ ok: true } | SignInRefusal> {
    const user = await findMailRecipient(this.context, { userName });
    if (!user) return { ok: true };
    if (user.locked) return refusal(400, 'account.reset_user_locked');
    if (user.draft || requiresProfessionalAccount(this.context, user.user_name)) {
      return refusal(400, 'account.reset_not_allowed');
    }
    // At most one mail a minute and a few an hour per account, counted atomically: parallel requests
    // cannot send more. Past the limit the answer is the same and nothing is sent.
    if (!(await this.context.throttle.mayMail(user.id))) return { ok: true };

    await revokeUserTokens(this.context, user.id, 'PasswordReset');
    const { token } = await issueUserToken(this.context, { userId: user.id, purpose: 'PasswordReset', ttlSeconds: RESET_TOKEN_SECONDS });
    const base = this.context.config.server.publicUrl;
    const link = new URL(`${base}/account/changePassword`);
    link.searchParams.set('identityName', user.user_name);
    link.searchParams.set('token', token);
    link.searchParams.set('returnUrl', returnUrl ?? `${base}/`);
    const mailLanguage = (LANGUAGES as readonly string[]).includes(language ?? '') ? (language as Language) : user.language;
    // Delivered in the background: waiting for the SMTP server would make known accounts slower to answer.
    void this.mailer
      .send({
        to: user.email,
        template: 'password-reset',
        language: mailLanguage,
        params: { name: user.first_name ?? user.user_name, link: link.toString(), minutes: RESET_TOKEN_SECONDS / 60 },
      })
      .catch((error: Error) => this.context.logger.warn({ err: error.message }, 'reset mail failed'));
    return { ok: true };
  }

  /** The link's token, for that user, still usable. Spaces read as `+` (links pasted from some mail clients). */
  async validate(identityName: string, token: string): Promise<{ ok: true; user: MailRecipient; tokenId: string } | SignInRefusal> {
    const row = await findUserToken(this.context, token.replaceAll(' ', '+'), 'PasswordReset');
    const user = row ? await findMailRecipient(this.context, { userName: identityName }) : undefined;
    if (!row || !user || user.id !== row.user_id) return refusal(400, 'account.invalid_token');
    if (user.locked) return refusal(400, 'account.reset_user_locked');
    if (user.draft) return refusal(400, 'account.reset_not_allowed');
    return { ok: true, user, tokenId: row.id };
  }

  /** Sets the new password from a link: checked against the policy first, so a refused password does not burn the link. */
  async complete(identityName: string, token: string, newPassword: string, confirmPassword?: string): Promise<{ ok: true } | SignInRefusal> {
    const valid = await this.validate(identityName, token);
    if (!valid.ok) return valid;
    // Whoever holds the link reads the mailbox: the account's mail counts start again.
    await this.context.throttle.mailUsed(valid.user.id);
    await assertAcceptablePassword(this.context, { userId: valid.user.id, newPassword, confirmPassword });
    if (!(await consumeUserToken(this.context, valid.tokenId))) return refusal(400, 'account.invalid_token');
    await applyNewPassword(this.context, this.mailer, valid.user.id, newPassword);
    return { ok: true };
  }
}
