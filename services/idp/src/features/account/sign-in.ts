import { inSpan, securitySettings, type AppContext, type LockoutPolicy, type PasswordPolicy, type SecuritySettings } from '@gatehouse/core';
import { Mailer } from '@gatehouse/core/mail';
import { AFTER_PASSWORD_STEPS, finish } from './after-password-steps.js';
import { changeExpiredPassword } from './expired-password.js';
import { PASSWORD_STEPS } from './password-steps.js';
import type { SignInRefusal } from './refusal.js';
import { resendCode, verifyCode } from './second-factor.js';
import { newSignInState, runSteps, signInOutcomeAttributes, type SignInDeps, type SignInInteraction, type SignInOutcome, type SignInSource, type SignInStep } from './sign-in-state.js';

export type { SignInRefusal } from './refusal.js';

export interface SignInRequest extends SignInSource {
  userName: string;
  password: string;
}

export type SignInResult = SignInOutcome;

/** A password sign-in, step by step: the password, then an expired password, a second factor, the finish. */
export const SIGN_IN_STEPS: readonly SignInStep[] = [...PASSWORD_STEPS, ...AFTER_PASSWORD_STEPS];

/** The password alone, then recorded: a sign-in with no interaction, where no further step could be shown. */
const PASSWORD_ONLY_STEPS: readonly SignInStep[] = [...PASSWORD_STEPS, finish];

const PASSWORD_PROOF = { reason: 'Password verified', amr: ['pwd'] };

/**
 * The password policy in force (the security settings' cache: every sign-in checks the password's
 * age, and a change made in the console applies from the next sign-in on).
 */
export function cachedPasswordPolicy(context: AppContext): () => Promise<PasswordPolicy> {
  const settings = securitySettings(context);
  return async () => (await settings.get()).PasswordPolicy;
}

/**
 * The password sign-in and the steps that may follow it (expired password, second factor), each
 * bound to its sign-in by a token sent to the page and to the browser by the provider's interaction.
 * Each attempt first makes sure the security settings are the ones in force: a change heard from
 * another node is reread before the lockout counts the attempt.
 */
export class PasswordSignIn {
  readonly deps: SignInDeps;
  private readonly settings: SecuritySettings;

  /** `lockout`: a fixed policy; by default the `Lockout` security setting in force at each attempt. */
  constructor(context: AppContext, lockout?: LockoutPolicy, mailer: Mailer = new Mailer(context)) {
    const settings = securitySettings(context);
    this.settings = settings;
    this.deps = {
      context,
      get lockout() {
        return lockout ?? settings.current().Lockout;
      },
      mailer,
      passwordPolicy: cachedPasswordPolicy(context),
    };
  }

  /** The sign-in of an interaction: where it stands after the password (finished, or the next step), or its refusal. */
  async login(request: SignInRequest, interaction: SignInInteraction): Promise<SignInOutcome> {
    await this.settings.get();
    return runSteps(SIGN_IN_STEPS, newSignInState({ ...this.split(request), interaction, proof: PASSWORD_PROOF }), this.deps);
  }

  /** Checks the password and records the sign-in, with no interaction to resume. */
  async signIn(request: SignInRequest): Promise<SignInResult> {
    await this.settings.get();
    return runSteps(PASSWORD_ONLY_STEPS, newSignInState({ ...this.split(request), proof: PASSWORD_PROOF }), this.deps);
  }

  async verifyCode(input: Parameters<typeof verifyCode>[1]): Promise<SignInOutcome> {
    await this.settings.get();
    // The second factor's span: its check, then the steps that finish the sign-in, under it.
    return inSpan('sign-in verifyCode', { resultAttributes: signInOutcomeAttributes }, () => verifyCode(this.deps, input));
  }

  resendCode(token: string, interaction: string): Promise<{ ok: true; expiresAt: number } | SignInRefusal> {
    return resendCode(this.deps, token, interaction);
  }

  changeExpiredPassword(input: Parameters<typeof changeExpiredPassword>[1]): Promise<SignInOutcome> {
    return changeExpiredPassword(this.deps, input);
  }

  private split({ userName, password, ...source }: SignInRequest) {
    return { userName, password, source };
  }
}
