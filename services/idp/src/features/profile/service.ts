import { AppError, acceptTotpCode, generateTotpSecret, matchingTotpStep, totpUri, type AppContext } from '@gatehouse/core';
import { announceFactorChange, type Mailer } from '@gatehouse/core/mail';
import type { PasswordResetSent, ProfileSuccess, TotpEnrolment } from '@gatehouse/contracts';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { PasswordReset } from '../account/password-reset.js';
import { assertRecent, recentUntil } from '../security/recent.js';
import { confirmTotpEnrolment, findProfileUser, removeTotp, startTotpEnrolment, type ProfileUserRow } from './repository.js';
import { INVALID_CODE, INVALID_PASSWORD, SecretProof, type ProfileRequest } from './secret-proof.js';

const DONE: ProfileSuccess = { success: true, errors: [] };

/** What a signed-in user does for themself: the reset link, the authenticator app. */
export class ProfileService {
  private readonly reset: PasswordReset;
  private readonly proof: SecretProof;

  constructor(
    private readonly context: AppContext,
    private readonly host: ProviderHost,
    private readonly mailer: Mailer,
  ) {
    this.reset = new PasswordReset(context, mailer);
    this.proof = new SecretProof(context);
  }

  /** Sends the signed-in user, who must be `name`, a reset link (the "Change password" button). */
  async requestPasswordReset(accountId: string, name: string, language: string): Promise<PasswordResetSent> {
    const user = await this.me(accountId);
    if (user.user_name.toLowerCase() !== name.trim().toLowerCase()) throw new AppError('errors.forbidden', 403);
    this.reset.request(user.user_name, user.language);
    return { ...DONE, message: this.context.i18n.t('account.reset_sent', { lng: language }) as string };
  }

  /**
   * Starts enrolling an authenticator app: a new secret (stored encrypted) and its otpauth URI.
   * Only within ten minutes of signing in or of confirming the password in this session, or with
   * the current password: a stolen or forgotten token alone cannot put someone else's
   * authenticator on the account.
   */
  async enrolTotp(request: ProfileRequest, password: string | undefined): Promise<TotpEnrolment> {
    const user = await this.me(request.accountId);
    if (user.totp_enabled_at) throw new AppError('account.totp_already_enrolled', 409);
    if (!(await recentUntil(this.context, this.host, request.sessionUid))) await this.reauthenticate(request, user, password);
    const secret = generateTotpSecret();
    await startTotpEnrolment(this.context.dataSource, user.id, this.context.secrets.encrypt(secret));
    return { secret, otpauthUri: totpUri(secret, user.user_name) };
  }

  /** Confirms the enrolment with a first code from the app; from then on it is the second factor. */
  async confirmTotp(request: ProfileRequest, code: string): Promise<ProfileSuccess> {
    const user = await this.me(request.accountId);
    const encrypted = user.totp_secret_encrypted;
    if (!encrypted || user.totp_enabled_at) throw new AppError('account.no_totp_enrolment', 409);
    let step: number | null = null;
    await this.proof.prove(request, user, INVALID_CODE, () => (step = matchingTotpStep(this.context.secrets.decrypt(encrypted), code)) !== null);
    if (!(await confirmTotpEnrolment(this.context.dataSource, user.id, step, encrypted))) throw new AppError('account.no_totp_enrolment', 409);
    await announceFactorChange(this.context, this.mailer, user.id, 'totp_added', { ip: request.ip, userAgent: request.userAgent });
    return DONE;
  }

  /**
   * Removes the authenticator app: within ten minutes of signing in (or of confirming the password),
   * proven with one of its codes not used before.
   */
  async disableTotp(request: ProfileRequest, code: string): Promise<ProfileSuccess> {
    const user = await this.me(request.accountId);
    if (!user.totp_secret_encrypted || !user.totp_enabled_at) throw new AppError('account.no_totp_enrolment', 409);
    await assertRecent(this.context, this.host, request.sessionUid);
    const db = this.context.dataSource;
    await this.proof.prove(request, user, INVALID_CODE, () => acceptTotpCode(db, this.context.secrets, user.id, code));
    await removeTotp(db, user.id);
    await announceFactorChange(this.context, this.mailer, user.id, 'totp_removed', { ip: request.ip, userAgent: request.userAgent });
    return DONE;
  }

  private async me(accountId: string): Promise<ProfileUserRow> {
    const user = await findProfileUser(this.context.dataSource, accountId);
    if (!user) throw new AppError('errors.unauthorized', 401);
    return user;
  }

  /** Long after signing in, the current password proves it is the user. */
  private async reauthenticate(request: ProfileRequest, user: ProfileUserRow, password: string | undefined): Promise<void> {
    if (!password) throw new AppError('account.reauthentication_required', 403);
    this.context.passwords.assertCapacity();
    await this.proof.prove(request, user, INVALID_PASSWORD, () => this.context.passwords.verify(user.password_hash, password));
  }
}
