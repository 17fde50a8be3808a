import { consumeUserToken, type Language } from '@gatehouse/core';
import { finish, requireSecondFactor, type ExpiredPasswordData } from './after-password-steps.js';
import { changePassword } from './password-change.js';
import { interactionExpired } from './refusal.js';
import { openStep, resumedState } from './second-factor.js';
import { runSteps, type Resume, type SignInDeps, type SignInOutcome, type SignInStep } from './sign-in-state.js';

/** After a changed expired password, the sign-in goes on where the password left it. */
const AFTER_PASSWORD_CHANGE: readonly SignInStep[] = [requireSecondFactor, finish];

/** The expired-password step: a new password under the policy, then the rest of the sign-in. */
export async function changeExpiredPassword(
  deps: SignInDeps,
  input: { token: string; interaction: string; resume: Resume; newPassword: string; confirmPassword?: string; language?: Language },
): Promise<SignInOutcome> {
  const step = await openStep<ExpiredPasswordData>(deps.context, input.token, 'ExpiredPassword', input.interaction);
  if (!step.ok) return step;
  const { newPassword, confirmPassword, language } = input;
  await changePassword(deps.context, deps.mailer, { userId: step.account.id, newPassword, confirmPassword, language });
  if (!(await consumeUserToken(deps.context, step.row.id))) return interactionExpired();
  // A sign-in with a passkey gave both factors before its password was found expired.
  const provenByPasskey = step.data.amr?.includes('pop') === true;
  const state = resumedState(step, input.resume, { reason: 'Expired password changed', amr: provenByPasskey ? step.data.amr! : ['pwd'] });
  return runSteps(provenByPasskey ? [finish] : AFTER_PASSWORD_CHANGE, state, deps);
}
