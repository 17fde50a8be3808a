import { AppError, factorSummary, generateRecoveryCodes, phishingResistantRequired, replaceRecoveryCodes, type AppContext, type PasskeySummary } from '@gatehouse/core';
import { announceFactorChange, type Mailer } from '@gatehouse/core/mail';
import type { Passkey, Reauthenticated, RecoveryCodes, SecurityOverview } from '@gatehouse/contracts';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { requiresProfessionalAccount } from '../account/password-steps.js';
import { INVALID_PASSWORD, SecretProof, type ProfileRequest } from '../profile/secret-proof.js';
import { assertRecent, recentUntil } from './recent.js';
import { findSecurityUser, markReauthenticated, type SecurityUserRow } from './repository.js';

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

function passkeyOf(passkey: PasskeySummary): Passkey {
  return { ...passkey, createdAt: passkey.createdAt.toISOString(), lastUsedAt: iso(passkey.lastUsedAt) };
}

/**
 * "My security": the user's factors at a glance, the confirmation of the password that opens ten
 * minutes of factor changes, and recovery codes.
 */
export class SecurityService {
  private readonly proof: SecretProof;

  constructor(
    private readonly context: AppContext,
    private readonly host: ProviderHost,
    private readonly mailer: Mailer,
  ) {
    this.proof = new SecretProof(context);
  }

  /** The user's passkeys, authenticator app and recovery codes (never a secret), and the rules they sign in under. */
  async overview(request: ProfileRequest): Promise<SecurityOverview> {
    const user = await this.me(request.accountId);
    const db = this.context.dataSource;
    const factors = await factorSummary(db, user.id);
    if (!factors) throw new AppError('errors.unauthorized', 401);
    const until = await recentUntil(this.context, this.host, request.sessionUid);
    return {
      passkeysOffered: !requiresProfessionalAccount(this.context, user.user_name),
      passkeys: factors.passkeys.map(passkeyOf),
      totp: { enrolled: factors.totp.enrolled, enrolledAt: iso(factors.totp.enrolledAt) },
      recoveryCodes: { remaining: factors.recoveryCodes.remaining, generatedAt: iso(factors.recoveryCodes.generatedAt) },
      secondFactorRequired: user.second_factor_required,
      phishingResistantRequired: await phishingResistantRequired(db, user.id),
      recentUntil: iso(until ?? null),
    };
  }

  /**
   * Confirms the password in this session: for ten minutes, factor changes and the end of sessions
   * need nothing more. A wrong password counts toward the lockout like one at sign-in. An account
   * that signs in with Microsoft has no password here: it signs in again instead.
   */
  async reauthenticate(request: ProfileRequest, password: string): Promise<Reauthenticated> {
    const user = await this.me(request.accountId);
    const hash = user.password_hash;
    if (!hash || requiresProfessionalAccount(this.context, user.user_name)) throw new AppError('account.reauthenticate_by_signing_in', 403);
    const session = request.sessionUid ? await this.host.current.Session.findByUid(request.sessionUid) : undefined;
    if (!session || session.accountId !== user.id) throw new AppError('account.reauthentication_required', 403);
    this.context.passwords.assertCapacity();
    await this.proof.prove(request, user, INVALID_PASSWORD, () => this.context.passwords.verify(hash, password));
    const amr = Array.isArray(session.amr) ? session.amr.map(String) : [];
    const loginTs = Number(session.authTime()) || Math.floor(Date.now() / 1000);
    await markReauthenticated(this.context.dataSource, { sessionUid: session.uid, userId: user.id, userAgent: request.userAgent, ip: request.ip, amr, loginTs });
    const until = await recentUntil(this.context, this.host, session.uid);
    if (!until) throw new AppError('account.reauthentication_required', 403);
    return { success: true, errors: [], recentUntil: until.toISOString() };
  }

  /**
   * Ten new recovery codes, answered once and stored only as hashes; the previous ones stop
   * working. For accounts that sign in with a password (the codes stand in for a lost
   * authenticator or passkey after it), outside tenants that accept only phishing-resistant factors.
   */
  async generateRecoveryCodes(request: ProfileRequest): Promise<RecoveryCodes> {
    const user = await this.me(request.accountId);
    if (!user.password_hash || requiresProfessionalAccount(this.context, user.user_name)) throw new AppError('account.recovery_codes_need_password', 403);
    if (await phishingResistantRequired(this.context.dataSource, user.id)) throw new AppError('account.recovery_code_not_allowed', 403);
    await assertRecent(this.context, this.host, request.sessionUid);
    const codes = generateRecoveryCodes();
    const generatedAt = await replaceRecoveryCodes(this.context.dataSource, this.context.secrets, user.id, codes);
    await announceFactorChange(this.context, this.mailer, user.id, 'recovery_codes_generated', { ip: request.ip, userAgent: request.userAgent });
    return { codes, generatedAt: generatedAt.toISOString() };
  }

  private async me(accountId: string): Promise<SecurityUserRow> {
    const user = await findSecurityUser(this.context.dataSource, accountId);
    if (!user) throw new AppError('errors.unauthorized', 401);
    return user;
  }
}
