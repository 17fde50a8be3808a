import { recordUnknownFailure, recordUserFailure, refundUnknownAttempt, refundUserAttempt, reserveUnknownAttempt, reserveUserAttempt, securitySettings, writeAuthenticationLog, type AppContext, type AuthenticationLogEntry, type FailureOutcome } from '@gatehouse/core';
import { requiresGroupSignIn } from '@gatehouse/contracts';
import { lockRefusal, logResultOf, refusal } from './refusal.js';
import { findSignInAccount, storeRehashedPassword } from './repository.js';
import type { SignInDeps, SignInState, SignInStep } from './sign-in-state.js';

// The password steps of a sign-in, with the spec's lockout: five failures in a row lock the account
// for five minutes; the third lock is permanent. An unknown user name takes the same path (a dummy
// verification and its own counter), so answer, status and timing do not reveal accounts.

/**
 * Group users sign in with Microsoft only: their user name is in a group domain or holds the
 * fragment (the `GroupDomains` security setting in force). The rule is the contracts' one, which
 * the login page applies as the name is typed.
 */
export function requiresProfessionalAccount(context: AppContext, userName: string): boolean {
  const { domains, domainFragment } = securitySettings(context).current().GroupDomains;
  return requiresGroupSignIn(userName, { groupDomains: domains, groupDomainFragment: domainFragment ?? undefined });
}

const normalizedOf = (state: SignInState) => state.userName.toLowerCase();

/** One authentication-log row for this attempt (provider Local). */
export function logAttempt(state: SignInState, deps: SignInDeps, result: AuthenticationLogEntry['result'], reason: string): Promise<void> {
  const { returnUrl, applicationName, ip, userAgent } = state.source;
  const userId = state.account?.id;
  return writeAuthenticationLog(deps.context.dataSource, { userId, userName: state.userName, result, reason, provider: 'Local', returnUrl, applicationName, ip, userAgent });
}

/** The account whose counter this attempt counts on: none for an unknown name, or a name answered as one. */
const countedAccount = (state: SignInState) => (state.answeredAsUnknown ? undefined : state.account);

/** Gives back the attempt reserved for this account or user name. */
function refund(state: SignInState, deps: SignInDeps): Promise<void> {
  const db = deps.context.dataSource;
  const account = countedAccount(state);
  return account ? refundUserAttempt(db, account.id) : refundUnknownAttempt(db, normalizedOf(state));
}

export const checkGroupDomain: SignInStep = async (state, deps) => {
  if (!requiresProfessionalAccount(deps.context, state.userName)) return;
  await logAttempt(state, deps, 'Failure', 'Group user must sign in with Microsoft');
  return { ok: false, status: 403, code: 'account.use_professional_account', externalLoginRequired: true };
};

/** The per-address limits, and room in the hash queue (both refuse with 429 or 503 by throwing). */
export const checkAttemptAllowed: SignInStep = async (state, deps) => {
  await deps.context.throttle.assertMayAttempt(state.source.ip, normalizedOf(state));
  deps.context.passwords.assertCapacity();
};

export const loadAccount: SignInStep = async (state, deps) => {
  state.account = await findSignInAccount(deps.context, normalizedOf(state));
};

/**
 * The attempt is counted before the password is checked, so parallel guesses cannot outrun the lock.
 * An account locked by someone rather than by failed attempts is counted as an unknown name: a
 * lock answered at the first guess would tell that the name has an account (see answeredAsUnknown).
 */
export const reserveAttempt: SignInStep = async (state, deps) => {
  const db = deps.context.dataSource;
  const own = state.account ? await reserveUserAttempt(db, state.account.id, deps.lockout) : undefined;
  state.answeredAsUnknown = own?.kind === 'permanent' && !own.byFailures;
  state.reservation = own && !state.answeredAsUnknown ? own : await reserveUnknownAttempt(db, normalizedOf(state), deps.lockout);
  if (state.reservation.kind !== 'busy') return;
  await logAttempt(state, deps, 'Failure', 'Sign-in attempt while others are being checked');
  return lockRefusal(state.reservation);
};

/** Always spend one verification, whatever the account's state. */
export const verifyPassword: SignInStep = async (state, deps) => {
  const { passwords } = deps.context;
  const hash = state.account?.passwordHash;
  try {
    state.passwordValid = hash ? await passwords.verify(hash, state.password) : await passwords.verifyNothing(state.password);
  } catch (error) {
    if (state.reservation?.kind === 'reserved') await refund(state, deps);
    throw error;
  }
};

export const refuseLocked: SignInStep = async (state, deps) => {
  const reservation = state.reservation!;
  if (state.answeredAsUnknown) {
    // The right password is told of the account's lock; a wrong one goes on as an unknown name's.
    if (state.passwordValid) {
      if (reservation.kind === 'reserved') await refund(state, deps);
      await logAttempt(state, deps, 'FullUserLocked', 'Sign-in attempt on a locked account');
      return lockRefusal({ kind: 'permanent' });
    }
    if (reservation.kind === 'reserved') return;
    await logAttempt(state, deps, 'FullUserLocked', 'Sign-in attempt on a locked account');
    return lockRefusal(reservation);
  }
  if (reservation.kind === 'reserved') return;
  await logAttempt(state, deps, reservation.kind === 'permanent' ? 'FullUserLocked' : 'UserLocked', 'Sign-in attempt on a locked account');
  return lockRefusal(reservation);
};

/**
 * A reserved attempt that failed: it counts (and may lock the account), the address's failures too,
 * and a permanent lock ends the user's tokens on every node at once.
 */
export async function settleFailure(deps: SignInDeps, attempt: { userId?: string; normalized: string; ip?: string | null }): Promise<FailureOutcome> {
  const { context } = deps;
  const outcome = attempt.userId
    ? await recordUserFailure(context.dataSource, attempt.userId, deps.lockout)
    : await recordUnknownFailure(context.dataSource, attempt.normalized, deps.lockout);
  await context.throttle.failed(attempt.ip, attempt.normalized);
  if (attempt.userId && outcome.kind === 'permanently_locked') context.broadcast.publish('user.changed', { userId: attempt.userId });
  // An unknown name's counter locks no account: only an account's own lock is counted.
  if (attempt.userId && (outcome.kind === 'locked' || outcome.kind === 'permanently_locked')) {
    context.metrics.lockouts.inc({ cause: 'failed_attempts', kind: outcome.kind === 'locked' ? 'temporary' : 'permanent' });
  }
  return outcome;
}

/** A wrong password settles its reservation as a failure. */
export const countFailure: SignInStep = async (state, deps) => {
  if (state.passwordValid) return;
  const userId = countedAccount(state)?.id;
  const outcome = await settleFailure(deps, { userId, normalized: normalizedOf(state), ip: state.source.ip });
  if (state.answeredAsUnknown) await logAttempt(state, deps, 'FullUserLocked', 'Sign-in attempt on a locked account');
  else await logAttempt(state, deps, logResultOf(outcome), userId ? 'Invalid password' : 'Unknown user name');
  return lockRefusal(outcome);
};

/**
 * The right password gives its reservation back when the sign-in stops short of being recorded (a
 * second factor, an expired password, a refusal); the count itself is cleared only when the whole
 * sign-in completes, so re-entering the password cannot buy more guesses at a second factor. A
 * sign-in recorded at once clears the count in the statement that records it: no refund then.
 */
export const giveBackReservation: SignInStep = (state, deps) => {
  state.giveBack = () => refund(state, deps);
  return Promise.resolve();
};

export const refuseDraft: SignInStep = async (state, deps) => {
  if (!state.account?.draft) return;
  await logAttempt(state, deps, 'Failure', 'Draft user');
  return refusal(403, 'account.pending_approval');
};

/** A password hashed with older parameters is hashed again while it is at hand. */
export const rehashPassword: SignInStep = async (state, deps) => {
  const { passwords } = deps.context;
  const account = state.account!;
  if (passwords.needsRehash(account.passwordHash!)) await storeRehashedPassword(deps.context, account.id, await passwords.hash(state.password));
};

/** The password steps, in order: past them the user is known and the password right. */
export const PASSWORD_STEPS: readonly SignInStep[] = [
  checkGroupDomain,
  checkAttemptAllowed,
  loadAccount,
  reserveAttempt,
  verifyPassword,
  refuseLocked,
  countFailure,
  giveBackReservation,
  refuseDraft,
  rehashPassword,
];
