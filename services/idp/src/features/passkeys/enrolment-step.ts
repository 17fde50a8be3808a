import { issueUserToken } from '@gatehouse/core';
import { stepContextOf, type SecondFactorData } from '../account/after-password-steps.js';
import { STEP_TOKEN_SECONDS } from '../account/sign-in-code.js';
import { accountOf, type SignInStep, type StepContext } from '../account/sign-in-state.js';

/** What marks a second-factor token as the passkey-enrolment step of a sign-in. */
export const ENROL_PASSKEY = 'enrol-passkey';

/** The mark a step's token may carry. */
export interface EnrolmentMark {
  step?: string;
}

/** What the passkey-enrolment step's token holds: no code is accepted with it, only a new passkey. */
export type EnrolmentData = StepContext & Pick<SecondFactorData, 'method'> & { step: typeof ENROL_PASSKEY };

/** The token is the enrolment step's, not a second factor's. */
export const isEnrolmentStep = (data: EnrolmentMark): boolean => data.step === ENROL_PASSKEY;

/**
 * After the second factor: a user of a tenant that accepts only phishing-resistant factors, who
 * holds no passkey yet, adds one before the sign-in ends (a step with its own token, `SignInCode`
 * marked as enrolment). Anyone else goes on to the finish.
 */
export const afterSecondFactor: SignInStep = async (state, deps) => {
  const account = accountOf(state);
  if (!account.phishingResistantOnly || account.passkeyCount > 0) return;
  const data: EnrolmentData = { ...stepContextOf(state), method: 'passkey', step: ENROL_PASSKEY };
  const { token } = await issueUserToken(deps.context, { userId: account.id, purpose: 'SignInCode', ttlSeconds: STEP_TOKEN_SECONDS, data: { ...data } });
  return { ok: true, kind: 'passkey-enrolment', token };
};
