import { isPasswordExpired, issueUserToken } from '@gatehouse/core';
import { completeSignIn, finishSignIn } from './finish.js';
import { STEP_TOKEN_SECONDS, sendSignInCode, type CodeData } from './sign-in-code.js';
import { accountOf, type SignInDeps, type SignInOutcome, type SignInState, type SignInStep, type StepContext } from './sign-in-state.js';

/** What the token of a step after the password carries: the interaction and where the attempt came from. */
function stepContextOf(state: SignInState): StepContext {
  const { returnUrl, applicationName, ip, userAgent } = state.source;
  return { interaction: state.interaction?.uid ?? '', remember: state.interaction?.remember ?? false, returnUrl, applicationName, ip, userAgent };
}

/**
 * An expired password, or a temporary one an administrator set, must be replaced by one the user
 * chooses before the sign-in goes on (a step with its own token).
 */
export const checkPasswordExpiry: SignInStep = async (state, deps) => {
  const account = accountOf(state);
  if (!isPasswordExpired(account.passwordChangedAt, await deps.passwordPolicy())) return;
  const data = { ...stepContextOf(state) };
  const { token } = await issueUserToken(deps.context, { userId: account.id, purpose: 'ExpiredPassword', ttlSeconds: STEP_TOKEN_SECONDS, data });
  return { ok: true, kind: 'expired-password', token, temporary: !account.passwordChangedAt };
};

/** A second factor, when the user or a tenant asks for one: the authenticator app's code, or a mailed one. */
export const requireSecondFactor: SignInStep = async (state, deps) => {
  const account = accountOf(state);
  if (!account.secondFactorRequired) return;
  const method = account.totpEnabledAt ? 'totp' : 'email';
  const { id, token } = await issueUserToken(deps.context, {
    userId: account.id,
    purpose: 'SignInCode',
    ttlSeconds: STEP_TOKEN_SECONDS,
    data: { ...stepContextOf(state), method, resends: 0, sentAt: Date.now() } satisfies CodeData,
  });
  if (method === 'totp') return { ok: true, kind: 'second-factor', token, method };
  const expiresAt = await sendSignInCode(deps.context, deps.mailer, account, id);
  return { ok: true, kind: 'second-factor', token, method, expiresAt };
};

/** Nothing more is asked of the user: the sign-in is recorded and, with an interaction, resumed. */
export async function finish(state: SignInState, deps: SignInDeps): Promise<SignInOutcome> {
  const account = accountOf(state);
  const signedIn = { user: account, reason: state.proof.reason, provider: 'Local' as const, source: state.source };
  const { interaction } = state;
  if (!interaction) {
    const refused = await completeSignIn(deps.context, signedIn);
    return refused ?? { ok: true, kind: 'signed-in', userId: account.id, redirectTo: null };
  }
  const finished = await finishSignIn(deps.context, signedIn, interaction.resume, { remember: interaction.remember, amr: state.proof.amr });
  return finished.ok ? { ok: true, kind: 'signed-in', userId: account.id, redirectTo: finished.redirectTo } : finished;
}

/** After the password: an expired one changed, then a second factor, then the finish. */
export const AFTER_PASSWORD_STEPS: readonly SignInStep[] = [checkPasswordExpiry, requireSecondFactor, finish];
