import { DEFAULT_LOCKOUT_POLICY, loadPasswordPolicy, type AppContext, type LockoutPolicy, type PasswordPolicy } from '@gatehouse/core';
import { Mailer } from '@gatehouse/core/mail';
import { AFTER_PASSWORD_STEPS, finish } from './after-password-steps.js';
import { changeExpiredPassword } from './expired-password.js';
import { PASSWORD_STEPS } from './password-steps.js';
import type { SignInRefusal } from './refusal.js';
import { resendCode, verifyCode } from './second-factor.js';
import { newSignInState, runSteps, type SignInDeps, type SignInInteraction, type SignInOutcome, type SignInSource, type SignInStep } from './sign-in-state.js';

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
 * The password policy, read at most every 30 s: every sign-in checks the password's age, and the
 * policy changes rarely (a change applies to sign-ins within half a minute).
 */
export function cachedPasswordPolicy(context: AppContext): () => Promise<PasswordPolicy> {
  let cached: { policy: Promise<PasswordPolicy>; at: number } | undefined;
  return () => {
    if (!cached || cached.at + 30_000 < Date.now()) {
      const policy = loadPasswordPolicy(context.dataSource);
      cached = { policy, at: Date.now() };
      // A failed read is not kept: the next sign-in tries again.
      policy.catch(() => (cached = undefined));
    }
    return cached.policy;
  };
}

/**
 * The password sign-in and the steps that may follow it (expired password, second factor), each
 * bound to its sign-in by a token sent to the page and to the browser by the provider's interaction.
 */
export class PasswordSignIn {
  readonly deps: SignInDeps;

  constructor(context: AppContext, lockout: LockoutPolicy = DEFAULT_LOCKOUT_POLICY, mailer: Mailer = new Mailer(context)) {
    this.deps = { context, lockout, mailer, passwordPolicy: cachedPasswordPolicy(context) };
  }

  /** The sign-in of an interaction: where it stands after the password (finished, or the next step), or its refusal. */
  login(request: SignInRequest, interaction: SignInInteraction): Promise<SignInOutcome> {
    return runSteps(SIGN_IN_STEPS, newSignInState({ ...this.split(request), interaction, proof: PASSWORD_PROOF }), this.deps);
  }

  /** Checks the password and records the sign-in, with no interaction to resume. */
  signIn(request: SignInRequest): Promise<SignInResult> {
    return runSteps(PASSWORD_ONLY_STEPS, newSignInState({ ...this.split(request), proof: PASSWORD_PROOF }), this.deps);
  }

  verifyCode(input: Parameters<typeof verifyCode>[1]): Promise<SignInOutcome> {
    return verifyCode(this.deps, input);
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
