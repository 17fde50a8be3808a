import { lockStatus, recordSignInSuccess, writeAuthenticationLog, type AppContext, type AuthenticationLogEntry } from '@gatehouse/core';
import { requiresProfessionalAccount } from '../account/sign-in.js';
import { MICROSOFT, MicrosoftAccounts, type LinkedUser } from './microsoft-accounts.js';
import type { MicrosoftIdentity } from './microsoft-client.js';

/** Where the sign-in comes from, for the authentication log. */
export interface ExternalSignInRequest {
  returnUrl?: string | null;
  applicationName?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** A refusal: `code` is the i18n key of the message the page shows. */
export interface ExternalSignInRefusal {
  ok: false;
  status: number;
  code: string;
  params?: Record<string, unknown>;
  /** The user may try another Microsoft account. */
  retry: boolean;
}

export type ExternalSignInResult = { ok: true; userId: string } | ExternalSignInRefusal;

/** Log name of attempts made before any identity is known (forged state, cancelled at Microsoft). */
export const UNKNOWN_USER = '(unknown)';

/** One authentication-log row of a Microsoft sign-in attempt. */
export function logMicrosoftAttempt(context: AppContext, entry: Omit<AuthenticationLogEntry, 'provider'>): Promise<void> {
  return writeAuthenticationLog(context.dataSource, { ...entry, provider: MICROSOFT });
}

const formatUtc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Signs in the user a Microsoft identity leads to, under the same rules as a password: draft and
 * locked users are refused with the same messages, every outcome is logged (provider Microsoft).
 *
 * There is no local second factor and no password-expiry step after Microsoft, whatever the
 * user's tenants ask of password sign-ins: Entra ID applies the organisation's own MFA and
 * conditional-access policies to these accounts, and they have no local password to expire.
 */
export class MicrosoftSignIn {
  constructor(
    private readonly context: AppContext,
    private readonly accounts = new MicrosoftAccounts(context, (email) => requiresProfessionalAccount(context, email)),
  ) {}

  async signIn(identity: MicrosoftIdentity, request: ExternalSignInRequest & { language: string }): Promise<ExternalSignInResult> {
    const log = (result: AuthenticationLogEntry['result'], reason: string, user?: { id?: string; userName?: string }) =>
      logMicrosoftAttempt(this.context, {
        userId: user?.id,
        userName: user?.userName ?? identity.email ?? `${identity.oid}@${identity.tid}`,
        result,
        reason,
        returnUrl: request.returnUrl,
        applicationName: request.applicationName,
        ip: request.ip,
        userAgent: request.userAgent,
      });

    const found = await this.accounts.resolve(identity, request.language);
    if (!found.ok) {
      await log('Failure', found.reason, { id: found.userId });
      return { ok: false, status: 403, code: found.code, retry: found.code === 'externalLogin.no_account' };
    }
    const { user } = found;
    if (user.draft) {
      await log('Failure', 'Draft user', user);
      return { ok: false, status: 403, code: 'account.pending_approval', retry: false };
    }
    const lock = lockStatus(user);
    if (lock === 'permanent') {
      await log('FullUserLocked', 'Sign-in attempt on a locked account', user);
      return { ok: false, status: 423, code: 'account.locked_permanently', retry: false };
    }
    if (lock === 'locked') {
      await log('UserLocked', 'Sign-in attempt on a locked account', user);
      return { ok: false, status: 423, code: 'account.locked', params: { until: formatUtc(user.lockoutEnd!) }, retry: false };
    }
    const reason = { linked: 'Microsoft account', 'group-domain': 'Microsoft account linked by group e-mail', provisioned: 'Microsoft account provisioned' }[found.how];
    if (!(await this.complete(user, request, reason))) {
      // Locked between the check above and now (an administrator's lock).
      await log('FullUserLocked', 'Account locked during the sign-in', user);
      return { ok: false, status: 423, code: 'account.locked_permanently', retry: false };
    }
    return { ok: true, userId: user.id };
  }

  /** Counters cleared, last sign-in and link use dated, success logged: one round trip, as for passwords; false when the account is locked. */
  private complete(user: LinkedUser, request: ExternalSignInRequest, reason: string): Promise<boolean> {
    return recordSignInSuccess(this.context.dataSource, {
      userId: user.id,
      userName: user.userName,
      reason,
      provider: MICROSOFT,
      returnUrl: request.returnUrl,
      applicationName: request.applicationName,
      ip: request.ip,
      userAgent: request.userAgent,
      externalLoginId: user.linkId,
    });
  }
}
