import { consumeUserToken, type AppContext } from '@gatehouse/core';
import { announceFactorChange, type Mailer } from '@gatehouse/core/mail';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { finish } from '../account/after-password-steps.js';
import { interactionExpired, type SignInRefusal } from '../account/refusal.js';
import { openStep, resumedState, type OpenStep } from '../account/second-factor.js';
import type { Resume, SignInDeps, SignInOutcome } from '../account/sign-in-state.js';
import { registrationOptions, verifyRegistration } from './ceremonies.js';
import { challengeOf, keepChallenge, spendChallenge } from './challenges.js';
import { isEnrolmentStep, type EnrolmentData } from './enrolment-step.js';
import { storePasskey } from './my-passkeys.js';
import { relyingPartyOf } from './relying-party.js';
import { credentialsOf, findPasskeyOwner } from './repository.js';
import { logRefusedAssertion, passkeyRefused } from './sign-in-steps.js';

/** The password and a code proved who the user is; the passkey added now is the phishing-resistant factor for next time. */
const ENROLLED_PROOF = { reason: 'Passkey added during sign-in', amr: ['pwd', 'otp', 'mfa'] };

/**
 * The passkey-enrolment step of a sign-in (afterSecondFactor): the user of a tenant that accepts
 * only phishing-resistant factors adds a passkey, then the sign-in finishes.
 */
export class PasskeyEnrolment {
  constructor(
    private readonly context: AppContext,
    private readonly deps: SignInDeps,
    private readonly mailer: Mailer,
  ) {}

  /** Options to create the passkey, with a challenge bound to the step's user and interaction. */
  async options(token: string, interaction: string): Promise<{ ok: true; options: PublicKeyCredentialCreationOptionsJSON } | SignInRefusal> {
    const step = await this.open(token, interaction);
    if (!step.ok) return step;
    const owner = await findPasskeyOwner(this.context.dataSource, step.account.id);
    if (!owner) return interactionExpired();
    const options = await registrationOptions(relyingPartyOf(this.context), owner, await credentialsOf(this.context.dataSource, owner.id));
    await keepChallenge(this.context, options.challenge, { purpose: 'Register', userId: owner.id, interactionUid: interaction });
    return { ok: true, options };
  }

  /** Adds the passkey the browser created for this step's options, then finishes the sign-in (the step's token used once). */
  async register(input: { token: string; response: Record<string, unknown>; name?: string; interaction: string; resume: Resume }): Promise<SignInOutcome> {
    const step = await this.open(input.token, input.interaction);
    if (!step.ok) return step;
    const { account, data } = step;
    const challenge = challengeOf(input.response);
    const binding = { purpose: 'Register' as const, userId: account.id, interactionUid: input.interaction };
    const registration = challenge && (await spendChallenge(this.context, challenge, binding)) ? await verifyRegistration(relyingPartyOf(this.context), input.response, challenge) : undefined;
    if (!registration) {
      await logRefusedAssertion(this.context, data, 'Passkey not added during sign-in', account);
      return passkeyRefused();
    }
    const added = await storePasskey(this.context, account.id, registration, { name: input.name, userAgent: data.userAgent });
    await announceFactorChange(this.context, this.mailer, account.id, 'passkey_added', { passkeyName: added.name, ip: data.ip, userAgent: data.userAgent });
    if (!(await consumeUserToken(this.context, step.row.id))) return interactionExpired();
    return finish(resumedState(step, input.resume, ENROLLED_PROOF), this.deps);
  }

  /** The enrolment step a token names, of this interaction; any other token is no enrolment. */
  private async open(token: string, interaction: string): Promise<OpenStep<EnrolmentData> | SignInRefusal> {
    const step = await openStep<EnrolmentData>(this.context, token, 'SignInCode', interaction);
    return !step.ok || isEnrolmentStep(step.data) ? step : interactionExpired();
  }
}
