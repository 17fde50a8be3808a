import { lockStatus, securitySettings, writeAuthenticationLog, type AppContext, type AuthenticationLogEntry } from '@gatehouse/core';
import { finishSignIn, type SignedIn } from '../account/finish.js';
import { requiresProfessionalAccount } from '../account/password-steps.js';
import { lockedOut, lockStateRefusal, refusal, type SignInRefusal } from '../account/refusal.js';
import type { Resume } from '../account/sign-in-state.js';
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
export interface ExternalSignInRefusal extends SignInRefusal {
  /** The user may try another Microsoft account. */
  retry: boolean;
}

export type ExternalSignInResult = { ok: true; redirectTo: string } | ExternalSignInRefusal;

/** Log name of attempts made before any identity is known (forged state, cancelled at Microsoft). */
export const UNKNOWN_USER = '(unknown)';

/** One authentication-log row of a Microsoft sign-in attempt. */
export function logMicrosoftAttempt(context: AppContext, entry: Omit<AuthenticationLogEntry, 'provider'>): Promise<void> {
  return writeAuthenticationLog(context.dataSource, { ...entry, provider: MICROSOFT });
}

/** The log's reason for each way the user was found. */
const REASONS = { linked: 'Microsoft account', 'group-domain': 'Microsoft account linked by group e-mail', provisioned: 'Microsoft account provisioned' } as const;

type LogAttempt = (result: AuthenticationLogEntry['result'], reason: string, user?: { id?: string; userName?: string }) => Promise<void>;

/**
 * Signs in the user a Microsoft identity leads to, under the same rules as a password: draft and
 * locked users are refused with the same messages, every outcome is logged (provider Microsoft),
 * and the sign-in finishes as every other does.
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

  async signIn(identity: MicrosoftIdentity, request: ExternalSignInRequest & { language: string }, resume: Resume, remember: boolean): Promise<ExternalSignInResult> {
    const log: LogAttempt = (result, reason, user) =>
      logMicrosoftAttempt(this.context, {
        userId: user?.id,
        userName: user?.userName ?? identity.email ?? `${identity.oid}@${identity.tid}`,
        result,
        reason,
        ...sourceOf(request),
      });
    const found = await this.accounts.resolve(identity, request.language);
    if (!found.ok) {
      await log('Failure', found.reason, { id: found.userId });
      return { ok: false, status: 403, code: found.code, retry: found.code === 'externalLogin.no_account' };
    }
    const { user } = found;
    const refused = await refuseAccount(user, log, securitySettings(this.context).current().Lockout.maxFailedAttempts);
    if (refused) return refused;
    const signedIn: SignedIn = { user, reason: REASONS[found.how], provider: MICROSOFT, source: sourceOf(request), externalLoginId: user.linkId };
    // "fed", as Entra ID itself marks a sign-in another identity provider performed.
    const finished = await finishSignIn(this.context, signedIn, resume, { remember, amr: ['fed'] });
    return finished.ok ? finished : { ...finished, retry: false };
  }
}

const sourceOf = ({ returnUrl, applicationName, ip, userAgent }: ExternalSignInRequest): ExternalSignInRequest => ({ returnUrl, applicationName, ip, userAgent });

/**
 * Draft and locked users are refused, as at a password sign-in; Microsoft has proved who they are,
 * so a lock is said as past a right password: "User Is Locked Out", then the lock's own message.
 */
async function refuseAccount(user: LinkedUser, log: LogAttempt, lockoutAttempts: number): Promise<ExternalSignInRefusal | undefined> {
  if (user.draft) {
    await log('Failure', 'Draft user', user);
    return { ...refusal(403, 'account.pending_approval'), retry: false };
  }
  const lock = lockStatus(user);
  if (lock === 'open') return undefined;
  await log(lock === 'permanent' ? 'FullUserLocked' : 'UserLocked', 'Sign-in attempt on a locked account', user);
  return { ...lockedOut(lockStateRefusal(user, lockoutAttempts)), retry: false };
}
