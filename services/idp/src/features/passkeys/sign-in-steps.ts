import { consumeUserToken, refundUserAttempt, reserveUserAttempt, writeAuthenticationLog, type AppContext } from '@gatehouse/core';
import { checkPasswordExpiry } from '../account/after-password-steps.js';
import { logAttempt, settleFailure } from '../account/password-steps.js';
import { interactionExpired, lockRefusal, lockedOut, logResultOf, refusal, type SignInRefusal } from '../account/refusal.js';
import { accountOf, type SignInState, type SignInStep } from '../account/sign-in-state.js';
import { verifyAssertion, type VerifiedAssertion } from './ceremonies.js';
import { deviceOf, relyingPartyOf } from './relying-party.js';
import { recordPasskeyUse, type StoredPasskey } from './repository.js';

// The steps of a sign-in with a passkey, beside the password's (account/password-steps.ts): the
// same lockout, counted before the assertion is checked, and the same per-address limits.

/** A passkey sign-in as it goes through its steps: the password's state, with the browser's assertion. */
export interface PasskeyState extends SignInState {
  /** The browser's assertion (`AuthenticationResponseJSON`) and the challenge its client data names. */
  readonly response: Record<string, unknown>;
  readonly challenge: string;
  /** The passkey the assertion names, when the user holds it; else the assertion fails. */
  readonly passkey?: StoredPasskey;
  /** A passkey alone is a whole sign-in only when the authenticator verified the user (PIN, biometrics). */
  readonly userVerification: boolean;
  /** After the password: the second-factor step's token, used once. */
  readonly stepTokenId?: string;
  verified?: VerifiedAssertion;
  /** The signature was right but the passkey's counter went back: a cloned authenticator. */
  cloned?: boolean;
}

/** Every refusal of an assertion, whatever failed: nothing tells an unknown passkey from a wrong signature. */
export const passkeyRefused = (): SignInRefusal => refusal(401, 'account.passkey_refused');

const normalizedOf = (state: SignInState) => accountOf(state).userName.toLowerCase();

/** Refused (429) when this address has used up its failures, before anything is checked. */
export const checkPasskeyAttemptAllowed: SignInStep = async (state, deps) => {
  await deps.context.throttle.assertMayAttempt(state.source.ip, state.userName.toLowerCase());
};

/** The account loaded by the passkey's user name must be the passkey's own (a rename in between refuses). */
export const matchPasskeyOwner: SignInStep<PasskeyState> = async (state, deps) => {
  if (state.account && state.account.id === state.passkey?.userId) return;
  await logAttempt(state, deps, 'Failure', 'Passkey of another account');
  return passkeyRefused();
};

/**
 * The attempt is counted before the assertion is checked, so parallel assertions cannot outrun the
 * lock. A lock is told only to whoever then gives a valid assertion (refusePasskeyLocked).
 */
export const reservePasskeyAttempt: SignInStep<PasskeyState> = async (state, deps) => {
  state.reservation = await reserveUserAttempt(deps.context.dataSource, accountOf(state).id, deps.lockout);
  if (state.reservation.kind !== 'busy') return;
  await logAttempt(state, deps, 'Failure', 'Passkey sign-in attempt while others are being checked');
  return lockRefusal(state.reservation);
};

/** Checks the assertion against the passkey, this deployment and the challenge; the reservation is given back if the check fails to run. */
export const verifyPasskeyAssertion: SignInStep<PasskeyState> = async (state, deps) => {
  if (!state.passkey) return;
  try {
    state.verified = await verifyAssertion(relyingPartyOf(deps.context), state.passkey, state.response, state.challenge, state.userVerification);
  } catch (error) {
    if (state.reservation?.kind === 'reserved') await refundUserAttempt(deps.context.dataSource, accountOf(state).id);
    throw error;
  }
};

/** A locked account: told as such to a valid assertion only; any other is refused as every failed assertion is. */
export const refusePasskeyLocked: SignInStep<PasskeyState> = async (state, deps) => {
  const reservation = state.reservation!;
  if (reservation.kind === 'reserved') return;
  if (!state.verified) {
    await logAttempt(state, deps, reservation.kind === 'permanent' ? 'FullUserLocked' : 'UserLocked', 'Invalid passkey assertion on a locked account');
    return passkeyRefused();
  }
  await logAttempt(state, deps, reservation.kind === 'permanent' ? 'FullUserLocked' : 'UserLocked', 'Passkey sign-in attempt on a locked account');
  return lockedOut(lockRefusal(reservation));
};

/**
 * Records the use of a passkey whose signature counter went forward (or that keeps none), with its
 * backup state and the browser it was used from. A counter that did not go forward is a cloned
 * authenticator: the assertion counts as a failure, and operators are told.
 */
export const recordSignCount: SignInStep<PasskeyState> = async (state, deps) => {
  const { verified, passkey } = state;
  if (!verified || !passkey) return;
  const use = { counter: verified.counter, backedUp: verified.backedUp, device: deviceOf(state.source.userAgent, { version: true }) };
  if (await recordPasskeyUse(deps.context.dataSource, passkey.id, use)) return;
  state.cloned = true;
  deps.context.logger.warn({ userId: passkey.userId, passkeyId: passkey.id, counter: verified.counter }, 'passkey sign counter went back: cloned authenticator?');
};

/** Why a failed assertion failed, for the log. */
const failureReason = (state: PasskeyState) => (state.cloned ? 'Passkey sign counter went back' : 'Invalid passkey assertion');

/**
 * A failed assertion (or a cloned authenticator) settles its reservation as a failure, like a wrong
 * password: it counts toward the lockout and the address's limits. Answered as every failed
 * assertion is, even when it locked the account.
 */
export const countPasskeyFailure: SignInStep<PasskeyState> = async (state, deps) => {
  if (state.verified && !state.cloned) return;
  const outcome = await settleFailure(deps, { userId: accountOf(state).id, normalized: normalizedOf(state), ip: state.source.ip });
  await logAttempt(state, deps, logResultOf(outcome), failureReason(state));
  return passkeyRefused();
};

/**
 * After the password, a failed assertion counts like a wrong code: the attempts left are said,
 * and a lock as such (the password was right).
 */
export const countStepFailure: SignInStep<PasskeyState> = async (state, deps) => {
  if (state.verified && !state.cloned) return;
  const outcome = await settleFailure(deps, { userId: accountOf(state).id, normalized: normalizedOf(state), ip: state.source.ip });
  await logAttempt(state, deps, logResultOf(outcome), `${failureReason(state)} after password`);
  return outcome.kind === 'counted' ? { ...passkeyRefused(), attemptsLeft: outcome.attemptsLeft } : lockedOut(lockRefusal(outcome));
};

/** After the password, a lock is told as such: the password was right. */
export const refuseStepLocked: SignInStep<PasskeyState> = async (state, deps) => {
  const reservation = state.reservation!;
  if (reservation.kind === 'reserved') return;
  await logAttempt(state, deps, reservation.kind === 'permanent' ? 'FullUserLocked' : 'UserLocked', 'Passkey after password on a locked account');
  return lockedOut(lockRefusal(reservation));
};

/** A password that expired (or is temporary) is still replaced before the sign-in ends; an account with no password has none to replace. */
export const checkPasswordExpiryIfAny: SignInStep = async (state, deps) => {
  if (accountOf(state).passwordHash) return checkPasswordExpiry(state, deps);
};

/** The second-factor step's token is used once: of two requests with a right assertion, one finishes. */
export const consumeStepToken: SignInStep<PasskeyState> = async (state, deps) => {
  if (state.stepTokenId && !(await consumeUserToken(deps.context, state.stepTokenId))) return interactionExpired();
};

/** The log row of an assertion refused before its account is known (an unknown passkey, a spent challenge). */
export function logRefusedAssertion(context: AppContext, source: SignInState['source'], reason: string, user?: { id: string; userName: string }): Promise<void> {
  const { returnUrl, applicationName, ip, userAgent } = source;
  const entry = { userId: user?.id, userName: user?.userName ?? '', result: 'Failure' as const, reason, provider: 'Local' as const };
  return writeAuthenticationLog(context.dataSource, { ...entry, returnUrl, applicationName, ip, userAgent });
}
