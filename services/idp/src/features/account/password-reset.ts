import { LANGUAGES, consumeUserToken, findUserToken, issueUserToken, revokeUserTokens, type AppContext, type Language } from '@gatehouse/core';
import { type Mailer } from '@gatehouse/core/mail';
import { applyNewPassword, assertAcceptablePassword } from './password-change.js';
import { requiresProfessionalAccount } from './password-steps.js';
import { refusal, type SignInRefusal } from './refusal.js';
import { findMailRecipient, type MailRecipient } from './repository.js';

/** A reset link works once, for an hour (documented). */
export const RESET_TOKEN_SECONDS = 60 * 60;

/**
 * Forgot password: a single-use link by mail. The answer says nothing about the account: it is
 * given before anything about the account is known, the same for every user name.
 */
export class PasswordReset {
  constructor(
    private readonly context: AppContext,
    private readonly mailer: Mailer,
  ) {}

  /**
   * Asks for a reset, on behalf of whoever typed `userName`. Nothing is awaited: the account is
   * looked up, its mails counted and its mail queued after the answer, so that an unknown,
   * locked, pending and active account are answered alike and as fast.
   */
  request(userName: string, language: string | undefined, returnUrl?: string): void {
    void this.mailer.later(() => this.send(userName, language, returnUrl), 'reset request');
  }

  /**
   * Mails the account what applies: a link to an active account; to a locked, pending (draft) or
   * group account, why there is none; to an unknown name, nothing. At most one mail a minute and a
   * few an hour per account, counted atomically (parallel requests cannot send more), whatever
   * the mail; past the limit nothing is sent.
   */
  private async send(userName: string, language: string | undefined, returnUrl?: string): Promise<void> {
    const user = await findMailRecipient(this.context, { userName });
    if (!user || !(await this.context.throttle.mayMail(user.id))) return;
    const to = user.email;
    const name = user.first_name ?? user.user_name;
    const mailLanguage = (LANGUAGES as readonly string[]).includes(language ?? '') ? (language as Language) : user.language;
    const refused = this.refusalMail(user);
    if (refused) {
      await this.mailer.send({ to, template: refused, language: mailLanguage, params: { name } });
      return;
    }
    const link = await this.newLink(user, returnUrl);
    await this.mailer.send({ to, template: 'password-reset', language: mailLanguage, params: { name, link, minutes: RESET_TOKEN_SECONDS / 60 } });
  }

  /** The mail an account that may not reset its password gets instead of a link. */
  private refusalMail(user: MailRecipient): 'password-reset-locked' | 'password-reset-pending' | 'password-reset-professional' | undefined {
    if (user.locked) return 'password-reset-locked';
    if (user.draft) return 'password-reset-pending';
    if (requiresProfessionalAccount(this.context, user.user_name)) return 'password-reset-professional';
    return undefined;
  }

  /** A new reset link for the user; the links issued before it stop working. */
  private async newLink(user: MailRecipient, returnUrl: string | undefined): Promise<string> {
    await revokeUserTokens(this.context, user.id, 'PasswordReset');
    const { token } = await issueUserToken(this.context, { userId: user.id, purpose: 'PasswordReset', ttlSeconds: RESET_TOKEN_SECONDS });
    const base = this.context.config.server.publicUrl;
    const link = new URL(`${base}/account/changePassword`);
    link.searchParams.set('identityName', user.user_name);
    link.searchParams.set('token', token);
    link.searchParams.set('returnUrl', returnUrl ?? `${base}/`);
    return link.toString();
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
  async complete(identityName: string, token: string, newPassword: string, confirmPassword?: string, language?: Language): Promise<{ ok: true } | SignInRefusal> {
    const valid = await this.validate(identityName, token);
    if (!valid.ok) return valid;
    // Whoever holds the link reads the mailbox: the account's mail counts start again.
    await this.context.throttle.mailUsed(valid.user.id);
    await assertAcceptablePassword(this.context, { userId: valid.user.id, newPassword, confirmPassword, language });
    if (!(await consumeUserToken(this.context, valid.tokenId))) return refusal(400, 'account.invalid_token');
    await applyNewPassword(this.context, this.mailer, valid.user.id, newPassword);
    return { ok: true };
  }
}
