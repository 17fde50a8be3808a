import { consumeUserToken } from '@gatehouse/core';
import { finish, requireSecondFactor } from './after-password-steps.js';
import { changePassword } from './password-change.js';
import { interactionExpired } from './refusal.js';
import { openStep, resumedState } from './second-factor.js';
import { runSteps, type Resume, type SignInDeps, type SignInOutcome, type SignInStep, type StepContext } from './sign-in-state.js';

/** After a changed expired password, the sign-in goes on where the password left it. */
const AFTER_PASSWORD_CHANGE: readonly SignInStep[] = [requireSecondFactor, finish];

/** The expired-password step: a new password under the policy, then the rest of the sign-in. */
export async function changeExpiredPassword(
  deps: SignInDeps,
  input: { token: string; interaction: string; resume: Resume; newPassword: string; confirmPassword?: string },
): Promise<SignInOutcome> {
  const step = await openStep<StepContext>(deps.context, input.token, 'ExpiredPassword', input.interaction);
  if (!step.ok) return step;
  await changePassword(deps.context, deps.mailer, { userId: step.account.id, newPassword: input.newPassword, confirmPassword: input.confirmPassword });
  if (!(await consumeUserToken(deps.context, step.row.id))) return interactionExpired();
  const state = resumedState(step, input.resume, { reason: 'Expired password changed', amr: ['pwd'] });
  return runSteps(AFTER_PASSWORD_CHANGE, state, deps);
}
