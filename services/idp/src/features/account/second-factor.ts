import {
  consumeRecoveryCode,
  consumeUserToken,
  findUserToken,
  holdsRecoveryCode,
  normalizeRecoveryCode,
  phishingResistantRequired,
  refundUserAttempt,
  reserveUserAttempt,
  writeAuthenticationLog,
  type AppContext,
  type TokenPurpose,
  type UserTokenRow,
} from '@gatehouse/core';
import { announceFactorChange } from '@gatehouse/core/mail';
import { finish } from './after-password-steps.js';
import { settleFailure } from './password-steps.js';
import { interactionExpired, lockRefusal, lockedOut, logResultOf, refusal, type SignInRefusal } from './refusal.js';
import { claimCodeResend, findSignInAccountById, type SignInAccount } from './repository.js';
import { MAX_RESENDS, RESEND_INTERVAL_SECONDS, codeMatches, mailedCodeExpired, sendSignInCode, type CodeData } from './sign-in-code.js';
import { afterSecondFactor } from '../passkeys/enrolment-step.js';
import { runSteps, type Resume, type SignInDeps, type SignInOutcome, type SignInState, type StepContext } from './sign-in-state.js';

/** A step after the password, found by its token, of this browser's interaction, with its account. */
export interface OpenStep<D extends StepContext> {
  ok: true;
  row: UserTokenRow;
  data: D;
  account: SignInAccount;
}

/** The step a token names, when it belongs to this interaction; else the sign-in is over for this page. */
export async function openStep<D extends StepContext>(context: AppContext, token: string, purpose: TokenPurpose, interaction: string): Promise<OpenStep<D> | SignInRefusal> {
  const row = await findUserToken(context, token, purpose);
  const data = row?.context as D | undefined;
  if (!row || !data || data.interaction !== interaction) return interactionExpired();
  const account = await findSignInAccountById(context, row.user_id);
  return account ? { ok: true, row, data, account } : interactionExpired();
}

/** The state of a sign-in resumed from a step's token, to finish it for the browser's interaction. */
export function resumedState(step: OpenStep<StepContext>, resume: Resume, proof: SignInState['proof']): SignInState {
  const { data, account } = step;
  const source = { returnUrl: data.returnUrl, applicationName: data.applicationName, ip: data.ip, userAgent: data.userAgent };
  return { source, interaction: { uid: data.interaction, remember: data.remember, resume }, proof, userName: account.userName, password: '', account };
}

/**
 * Checks a second-factor code for the sign-in its token belongs to, by the step's own method only
 * (or one of the user's recovery codes in its place), then finishes the sign-in. Wrong codes count
 * toward the same lockout as wrong passwords, and are reserved before they are checked, like them.
 */
export async function verifyCode(
  deps: SignInDeps,
  input: { token: string; code: string; recoveryCode?: string; interaction: string; resume: Resume },
): Promise<SignInOutcome> {
  const code = input.code.trim();
  const step = await openStep<CodeData>(deps.context, input.token, 'SignInCode', input.interaction);
  if (!step.ok) return step;
  if (input.recoveryCode) return verifyRecoveryCode(deps, step, input.recoveryCode, input.resume);
  if (!/^\d{6}$/.test(code)) return refusal(400, 'account.code_required');
  const refused = await spendCode(deps, step, code);
  if (refused) return refused;
  // Single use: of two requests with the right code, one wins.
  if (!(await consumeUserToken(deps.context, step.row.id))) return interactionExpired();
  const reason = step.data.method === 'totp' ? 'Authenticator code verified' : 'E-mailed code verified';
  return finishSecondFactor(deps, step, input.resume, { reason, amr: ['pwd', 'otp'] });
}

/** The second factor is given: the sign-in of the step finishes. */
function finishSecondFactor(deps: SignInDeps, step: OpenStep<CodeData>, resume: Resume, proof: SignInState['proof']): Promise<SignInOutcome> {
  const state = resumedState(step, resume, proof);
  // A user whose tenant accepts only phishing-resistant factors and who has no passkey adds one first.
  return runSteps([afterSecondFactor, finish], state, deps);
}

/**
 * One of the user's recovery codes in place of the step's code. Refused to a user of a tenant that
 * accepts only phishing-resistant factors; reserved and counted like a wrong code; good once,
 * whatever requests race with it. The user is told by mail that a code was used.
 */
async function verifyRecoveryCode(deps: SignInDeps, step: OpenStep<CodeData>, typed: string, resume: Resume): Promise<SignInOutcome> {
  const { context } = deps;
  const { account, data } = step;
  if (await phishingResistantRequired(context.dataSource, account.id)) return refusal(403, 'account.recovery_code_not_allowed');
  const code = normalizeRecoveryCode(typed);
  if (!code) return refusal(400, 'account.recovery_code_format');
  const refused = await spendRecoveryCode(deps, step, code);
  if (refused) return refused;
  const outcome = await finishSecondFactor(deps, step, resume, { reason: 'Recovery code used', amr: ['pwd', 'otp'] });
  await announceFactorChange(context, deps.mailer, account.id, 'recovery_code_used', { ip: data.ip, userAgent: data.userAgent });
  return outcome;
}

/**
 * One reserved check of a recovery code: the user must hold it unused; then the step's token and
 * the code are used, in that order, each by a compare-and-set, so that of requests racing with one
 * code exactly one goes on (and a code is never spent on a step already used). Undefined when this
 * sign-in used the code, else the refusal.
 */
async function spendRecoveryCode(deps: SignInDeps, step: OpenStep<CodeData>, code: string): Promise<SignInRefusal | undefined> {
  const { context } = deps;
  const { account, data } = step;
  const db = context.dataSource;
  await context.throttle.assertMayAttempt(data.ip, account.userName.toLowerCase());
  const reservation = await reserveUserAttempt(db, account.id, deps.lockout);
  if (reservation.kind !== 'reserved') return lockedOut(lockRefusal(reservation));
  let held: boolean;
  try {
    held = await holdsRecoveryCode(db, context.secrets, account.id, code);
  } catch (error) {
    await refundUserAttempt(db, account.id);
    throw error;
  }
  if (!held) return countWrongCode(deps, step, 'Invalid recovery code');
  await refundUserAttempt(db, account.id);
  if (!(await consumeUserToken(context, step.row.id))) return interactionExpired();
  // Another sign-in used the code since it was checked: this one has nothing left to finish with.
  if (!(await consumeRecoveryCode(db, context.secrets, account.id, code))) return interactionExpired();
  return undefined;
}

/** One reserved check of the code: undefined when it is right (the reservation given back), else the refusal. */
async function spendCode(deps: SignInDeps, step: OpenStep<CodeData>, code: string): Promise<SignInRefusal | undefined> {
  const { context } = deps;
  const { account, data } = step;
  await context.throttle.assertMayAttempt(data.ip, account.userName.toLowerCase());
  const reservation = await reserveUserAttempt(context.dataSource, account.id, deps.lockout);
  // The step's token proves the password was right: a lock is said as such.
  if (reservation.kind !== 'reserved') return lockedOut(lockRefusal(reservation));
  let valid: boolean;
  try {
    valid = await codeMatches(context, account, step.row.id, data, code);
  } catch (error) {
    await refundUserAttempt(context.dataSource, account.id);
    throw error;
  }
  if (!valid) return refuseCode(deps, step);
  await refundUserAttempt(context.dataSource, account.id);
  return undefined;
}

/** Expired → "Code expired!" (not counted); wrong → "Invalid code", counted. */
async function refuseCode(deps: SignInDeps, step: OpenStep<CodeData>): Promise<SignInRefusal> {
  const { account, data } = step;
  if (data.method === 'email' && data.codeHash && mailedCodeExpired(data)) {
    await refundUserAttempt(deps.context.dataSource, account.id);
    return refusal(400, 'account.code_expired');
  }
  return countWrongCode(deps, step, 'Invalid second-factor code');
}

/** A wrong code settles its reservation as a failure, logged with `reason`: "Invalid code", or the lock it caused. */
async function countWrongCode(deps: SignInDeps, { account, data }: OpenStep<CodeData>, reason: string): Promise<SignInRefusal> {
  const db = deps.context.dataSource;
  const outcome = await settleFailure(deps, { userId: account.id, normalized: account.userName.toLowerCase(), ip: data.ip });
  const entry = { userId: account.id, userName: account.userName, result: logResultOf(outcome), reason };
  await writeAuthenticationLog(db, { ...entry, returnUrl: data.returnUrl, applicationName: data.applicationName, ip: data.ip });
  return outcome.kind === 'counted' ? { ok: false, status: 401, code: 'account.invalid_code', attemptsLeft: outcome.attemptsLeft } : lockedOut(lockRefusal(outcome));
}

/**
 * "Resend Code": a new e-mailed code, at most every 30 s and 5 times per sign-in (counted
 * atomically, so parallel requests cannot send more); the previous code stops working. A sign-in
 * whose second factor is the authenticator app never falls back to a mailed code.
 */
export async function resendCode(deps: SignInDeps, token: string, interaction: string): Promise<{ ok: true; expiresAt: number } | SignInRefusal> {
  const step = await openStep<CodeData>(deps.context, token, 'SignInCode', interaction);
  if (!step.ok) return step;
  const { account, data, row } = step;
  if (data.method !== 'email' || account.totpEnabledAt) return refusal(400, 'account.resend_not_available');
  if (!(await claimCodeResend(deps.context, row.id, { intervalMs: RESEND_INTERVAL_SECONDS * 1000, max: MAX_RESENDS }))) {
    const wait = Math.ceil(((data.sentAt ?? 0) + RESEND_INTERVAL_SECONDS * 1000 - Date.now()) / 1000);
    return { ok: false, status: 429, code: 'account.resend_too_soon', retryAfter: Math.max(1, Math.min(wait, RESEND_INTERVAL_SECONDS)) };
  }
  return { ok: true, expiresAt: await sendSignInCode(deps.context, deps.mailer, account, row.id) };
}
