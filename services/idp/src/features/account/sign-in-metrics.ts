import { AppError, type Metrics } from '@gatehouse/core';

/**
 * The credential a sign-in step checks: the first factor (password, passkey, Microsoft), a second
 * factor (a code from the authenticator app or a mail, a recovery code, a passkey after the
 * password), or what finishes a sign-in held up by the password's expiry or a passkey to enrol.
 */
export type SignInMethod = 'password' | 'passkey' | 'microsoft' | 'one_time_code' | 'recovery_code' | 'passkey_second_factor' | 'new_password' | 'passkey_enrolment';

/** Where a step left the sign-in, when it went on. */
const PROGRESS: Record<string, string> = {
  'signed-in': 'success',
  'second-factor': 'mfa_required',
  'expired-password': 'password_expired',
  'passkey-enrolment': 'passkey_enrolment_required',
};

/** Why a step refused, from its message code: a closed set, whatever codes are added later (`refused`). */
const REFUSALS: Record<string, string> = {
  // A wrong password and an unknown user name are answered alike, and counted alike.
  'account.invalid_credentials': 'wrong_password',
  'account.invalid_code': 'wrong_code',
  'account.code_expired': 'code_expired',
  'account.passkey_refused': 'wrong_passkey',
  'account.locked': 'locked',
  'account.locked_permanently': 'locked',
  'account.locked_out': 'locked',
  'account.too_many_attempts': 'throttled',
  'account.pending_approval': 'pending_approval',
  'account.use_professional_account': 'microsoft_required',
  'account.interaction_expired': 'expired',
  'externalLogin.cancelled': 'cancelled',
  'externalLogin.no_account': 'no_account',
  'externalLogin.email_in_use': 'no_account',
  'externalLogin.provisioning_failed': 'no_account',
  'externalLogin.upstream_error': 'upstream_error',
  'externalLogin.unreachable': 'upstream_error',
  'externalLogin.state_mismatch': 'invalid_state',
  'externalLogin.state_used': 'invalid_state',
};

/** What a step answers, as far as counting it goes. */
export type StepResult = { ok: true; kind: string } | { ok: false; code: string };

/** The outcome label of a step's result: how the sign-in went on, or why it was refused. */
export function signInOutcome(result: StepResult): string {
  return result.ok ? (PROGRESS[result.kind] ?? 'other') : (REFUSALS[result.code] ?? 'refused');
}

/**
 * Counts one sign-in step by its method and outcome, and answers its result unchanged (`describe`
 * reads a result of another shape). A step that throws is counted too: `throttled` for a limit
 * (429), `unavailable` for a full hash queue or an absent dependency (503), `error` otherwise.
 */
export async function countSignIn<R>(metrics: Metrics, method: SignInMethod, step: Promise<R>, describe: (result: R) => StepResult = (result) => result as StepResult): Promise<R> {
  let result: R;
  try {
    result = await step;
  } catch (error) {
    const status = error instanceof AppError ? error.status : 500;
    metrics.signIns.inc({ method, outcome: status === 429 ? 'throttled' : status === 503 ? 'unavailable' : status < 500 ? 'refused' : 'error' });
    throw error;
  }
  metrics.signIns.inc({ method, outcome: signInOutcome(describe(result)) });
  return result;
}
