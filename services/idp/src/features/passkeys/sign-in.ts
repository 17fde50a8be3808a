import { securitySettings, type AppContext } from '@gatehouse/core';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { finish, type SecondFactorData } from '../account/after-password-steps.js';
import { checkGroupDomain, giveBackReservation, loadAccount, refuseDraft } from '../account/password-steps.js';
import { interactionExpired, refusal, type SignInRefusal } from '../account/refusal.js';
import { openStep, resumedState } from '../account/second-factor.js';
import { runSteps, type Resume, type SignInDeps, type SignInInteraction, type SignInOutcome, type SignInSource, type SignInStep } from '../account/sign-in-state.js';
import { assertionOptions } from './ceremonies.js';
import { challengeOf, keepChallenge, spendChallenge } from './challenges.js';
import { isEnrolmentStep, type EnrolmentMark } from './enrolment-step.js';
import { relyingPartyOf } from './relying-party.js';
import { credentialsOf, findPasskey, type ChallengeBinding, type StoredPasskey } from './repository.js';
import {
  checkPasskeyAttemptAllowed,
  checkPasswordExpiryIfAny,
  consumeStepToken,
  countPasskeyFailure,
  countStepFailure,
  logRefusedAssertion,
  matchPasskeyOwner,
  passkeyRefused,
  recordSignCount,
  refusePasskeyLocked,
  refuseStepLocked,
  reservePasskeyAttempt,
  verifyPasskeyAssertion,
  type PasskeyState,
} from './sign-in-steps.js';

/** A passkey with the user verified is both factors: possession of the key, and the PIN or biometrics that unlocked it. */
const PASSKEY_PROOF = { reason: 'Passkey verified', amr: ['pop', 'user', 'mfa'] };
const AFTER_PASSWORD_PROOF = { reason: 'Passkey verified after password', amr: ['pwd', 'pop', 'mfa'] };

/** Passkeys sent by addresses whose passkey is unknown share one count of failures per address. */
const UNKNOWN_PASSKEY = 'passkey:unknown';

/**
 * A sign-in with a passkey alone: the account's rules as for a password (a group-domain user goes
 * to Microsoft, the lockout counts the attempt first, a draft waits), then the password's expiry;
 * no second factor.
 */
const PASSKEY_STEPS: readonly SignInStep<PasskeyState>[] = [
  checkGroupDomain,
  checkPasskeyAttemptAllowed,
  loadAccount,
  matchPasskeyOwner,
  reservePasskeyAttempt,
  verifyPasskeyAssertion,
  refusePasskeyLocked,
  recordSignCount,
  countPasskeyFailure,
  giveBackReservation,
  refuseDraft,
  checkPasswordExpiryIfAny,
  finish,
];

/** A passkey as the second factor after the password: counted like a code, then the step's token used once. */
const SECOND_STEP_STEPS: readonly SignInStep<PasskeyState>[] = [
  checkPasskeyAttemptAllowed,
  reservePasskeyAttempt,
  refuseStepLocked,
  verifyPasskeyAssertion,
  recordSignCount,
  countStepFailure,
  giveBackReservation,
  consumeStepToken,
  finish,
];

const credentialIdOf = (response: Record<string, unknown>) => (typeof response.id === 'string' && response.id.length <= 1400 ? response.id : undefined);

/**
 * Sign-in with a passkey: alone (a discoverable passkey whose authenticator verified the user),
 * or as the second factor after the password. Each assertion answers a single-use challenge bound
 * to the sign-in it was issued for.
 */
export class PasskeySignIn {
  constructor(
    private readonly context: AppContext,
    private readonly deps: SignInDeps,
  ) {}

  /** Options to sign in with any passkey of this browser, bound to the interaction. */
  async options(interaction: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await assertionOptions(relyingPartyOf(this.context), [], 'required');
    await keepChallenge(this.context, options.challenge, { purpose: 'SignIn', interactionUid: interaction });
    return options;
  }

  /** Options for the second factor of a step: one of its user's passkeys, with or without user verification. */
  async stepOptions(token: string, interaction: string): Promise<{ ok: true; options: PublicKeyCredentialRequestOptionsJSON } | SignInRefusal> {
    const step = await openStep<SecondFactorData & EnrolmentMark>(this.context, token, 'SignInCode', interaction);
    if (!step.ok) return step;
    if (isEnrolmentStep(step.data)) return interactionExpired();
    const credentials = await credentialsOf(this.context.dataSource, step.account.id);
    if (!credentials.length) return refusal(400, 'account.no_passkey');
    const options = await assertionOptions(relyingPartyOf(this.context), credentials, 'preferred');
    await keepChallenge(this.context, options.challenge, { purpose: 'SecondFactor', interactionUid: interaction, userId: step.account.id });
    return { ok: true, options };
  }

  /** A sign-in with a passkey alone, for the interaction its challenge was issued to. */
  async signIn(input: { response: Record<string, unknown>; source: SignInSource; interaction: SignInInteraction }): Promise<SignInOutcome> {
    await securitySettings(this.context).get();
    const opened = await this.open(input.response, { purpose: 'SignIn', interactionUid: input.interaction.uid }, input.source);
    if (!opened.ok) return opened;
    const { passkey, challenge } = opened;
    const state: PasskeyState = { source: input.source, interaction: input.interaction, proof: PASSKEY_PROOF, userName: passkey.userName, password: '', response: input.response, challenge, passkey, userVerification: true };
    return runSteps(PASSKEY_STEPS, state, this.deps);
  }

  /** The second factor of a step with one of its user's passkeys; the step's token is used once. */
  async secondStep(input: { token: string; response: Record<string, unknown>; interaction: string; resume: Resume }): Promise<SignInOutcome> {
    await securitySettings(this.context).get();
    const step = await openStep<SecondFactorData & EnrolmentMark>(this.context, input.token, 'SignInCode', input.interaction);
    if (!step.ok) return step;
    if (isEnrolmentStep(step.data)) return interactionExpired();
    const state = resumedState(step, input.resume, AFTER_PASSWORD_PROOF);
    const { account } = step;
    const challenge = challengeOf(input.response);
    if (!challenge || !(await spendChallenge(this.context, challenge, { purpose: 'SecondFactor', interactionUid: input.interaction, userId: account.id }))) {
      await logRefusedAssertion(this.context, state.source, 'Passkey challenge expired, used or of another sign-in', account);
      return passkeyRefused();
    }
    const credentialId = credentialIdOf(input.response);
    const found = credentialId ? await findPasskey(this.context.dataSource, credentialId) : undefined;
    // Another user's passkey is no proof for this one: it fails as a wrong signature does.
    const passkey = found?.userId === account.id ? found : undefined;
    return runSteps(SECOND_STEP_STEPS, { ...state, response: input.response, challenge, passkey, userVerification: false, stepTokenId: step.row.id }, this.deps);
  }

  /**
   * Spends the assertion's challenge (whatever follows, it is never answered twice) and finds its
   * passkey. An unknown passkey counts against the address; a spent, expired or foreign challenge
   * refuses without counting (a replay proves nothing either way). One refusal for all.
   */
  private async open(response: Record<string, unknown>, binding: ChallengeBinding, source: SignInSource): Promise<{ ok: true; passkey: StoredPasskey; challenge: string } | SignInRefusal> {
    const challenge = challengeOf(response);
    const credentialId = credentialIdOf(response);
    const spent = challenge !== undefined && (await spendChallenge(this.context, challenge, binding));
    const passkey = credentialId ? await findPasskey(this.context.dataSource, credentialId) : undefined;
    if (!passkey) {
      await this.context.throttle.assertMayAttempt(source.ip, UNKNOWN_PASSKEY);
      await this.context.throttle.failed(source.ip, UNKNOWN_PASSKEY);
      await logRefusedAssertion(this.context, source, 'Unknown passkey');
      return passkeyRefused();
    }
    if (!spent || !challenge) {
      await logRefusedAssertion(this.context, source, 'Passkey challenge expired, used or of another sign-in', { id: passkey.userId, userName: passkey.userName });
      return passkeyRefused();
    }
    return { ok: true, passkey, challenge };
  }
}
