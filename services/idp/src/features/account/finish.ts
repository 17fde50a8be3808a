import { recordSignInSuccess, securitySettings, writeAuthenticationLog, type AppContext, type AuthenticationLogEntry } from '@gatehouse/core';
import { lockStateRefusal, lockedOut, type SignInRefusal } from './refusal.js';
import { readLockState } from './repository.js';
import type { InteractionLogin, Resume, SignInSource } from './sign-in-state.js';

/** A user who proved who they are, by one provider. */
export interface SignedIn {
  user: { id: string; userName: string };
  /** The log's reason: "Password verified", "E-mailed code verified", "Microsoft account", … */
  reason: string;
  provider: NonNullable<AuthenticationLogEntry['provider']>;
  source: SignInSource;
  /** The external link the sign-in used, dated with it. */
  externalLoginId?: string;
}

/**
 * Records a successful sign-in: counters cleared, last sign-in dated and the success logged, in one
 * round trip, unless the account was locked meanwhile (by a parallel attempt, or an administrator):
 * then that is logged and the refusal answered.
 */
export async function completeSignIn(context: AppContext, signedIn: SignedIn): Promise<SignInRefusal | undefined> {
  const { user, source, provider } = signedIn;
  const done = await recordSignInSuccess(context.dataSource, { userId: user.id, userName: user.userName, reason: signedIn.reason, provider, ...source, externalLoginId: signedIn.externalLoginId });
  if (!done) {
    const lock = await readLockState(context, user.id);
    const result = lock.locked ? 'FullUserLocked' : 'UserLocked';
    await writeAuthenticationLog(context.dataSource, { userId: user.id, userName: user.userName, result, reason: 'Account locked during the sign-in', provider, ...source });
    // Whoever got this far proved who they are: the lock is said as such.
    return lockedOut(lockStateRefusal(lock, securitySettings(context).current().Lockout.maxFailedAttempts));
  }
  // A password sign-in also clears this address's failures for the account.
  if (provider === 'Local') await context.throttle.succeeded(source.ip, user.userName.trim().toLowerCase());
  return undefined;
}

/**
 * Finishes a sign-in, whatever proved it (a password, a second factor, a changed expired password,
 * Microsoft): recorded, then the provider interaction resumed for the user.
 */
export async function finishSignIn(
  context: AppContext,
  signedIn: SignedIn,
  resume: Resume,
  login: Omit<InteractionLogin, 'accountId'>,
): Promise<{ ok: true; redirectTo: string } | SignInRefusal> {
  const refused = await completeSignIn(context, signedIn);
  if (refused) return refused;
  return { ok: true, redirectTo: await resume({ accountId: signedIn.user.id, ...login }) };
}
