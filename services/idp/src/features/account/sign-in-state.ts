import { activeTracer, inSpan, type AppContext, type LockoutPolicy, type PasswordPolicy, type Reservation } from '@gatehouse/core';
import type { Mailer } from '@gatehouse/core/mail';
import type { TwoFactorMethod } from '@gatehouse/contracts';
import type { SignInRefusal } from './refusal.js';
import type { SignInAccount } from './repository.js';

/** Where an attempt comes from, for the authentication log. */
export interface SignInSource {
  returnUrl?: string | null;
  applicationName?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** What the steps after the password carry in their token, to the end of the sign-in. */
export interface StepContext extends SignInSource {
  interaction: string;
  remember: boolean;
}

/** The provider's `login` result of a finished sign-in. */
export interface InteractionLogin {
  accountId: string;
  remember: boolean;
  amr: string[];
}

/** Finishes the provider interaction for the signed-in user and answers where the browser goes next. */
export type Resume = (login: InteractionLogin) => Promise<string>;

/** The interaction a sign-in belongs to: its id, "remember me", and how to finish it. */
export interface SignInInteraction {
  uid: string;
  remember: boolean;
  resume: Resume;
}

/** One sign-in request as it goes through its steps; each step reads it and may add to it. */
export interface SignInState {
  readonly source: SignInSource;
  /** Absent when nothing is to be resumed (the sign-in is only recorded). */
  readonly interaction?: SignInInteraction;
  /** How the user proved who they are: the log's reason and the OpenID Connect `amr` of the finish. */
  readonly proof: { reason: string; amr: string[] };
  /** As typed, trimmed. */
  readonly userName: string;
  readonly password: string;
  /** Read once, by the password step or from a step's token. */
  account?: SignInAccount;
  reservation?: Reservation;
  /**
   * The account is locked by someone (an administrator, an application), not by failed attempts:
   * its wrong passwords are counted and answered as an unknown name's, on that name's counter, so
   * the answers do not tell that the account exists; only the right password is told of the lock.
   */
  answeredAsUnknown?: boolean;
  passwordValid?: boolean;
  /**
   * Gives the attempt reserved for the right password back. Run when the steps end any other way
   * than a recorded sign-in (a further step, a refusal, an error); a recorded sign-in clears the
   * count itself, in the same statement.
   */
  giveBack?: () => Promise<void>;
}

/** What the steps are given besides the state. */
export interface SignInDeps {
  readonly context: AppContext;
  readonly lockout: LockoutPolicy;
  readonly mailer: Mailer;
  /** The password policy (cached: every sign-in checks the password's age). */
  readonly passwordPolicy: () => Promise<PasswordPolicy>;
}

/** A way to give the second factor: one of the methods, or one of the user's recovery codes. */
export type SecondFactorChoice = TwoFactorMethod | 'recovery';

/** Where a sign-in stands when its steps stop: a step the user must take, or finished. */
export type SignInProgress =
  /** `temporary`: the password was set by an administrator (or the bootstrap), never chosen by the user. */
  | { ok: true; kind: 'expired-password'; token: string; temporary: boolean }
  /** `method`: the one asked for first; `methods`: every one the user may give at this step. */
  | { ok: true; kind: 'second-factor'; token: string; method: TwoFactorMethod; methods: SecondFactorChoice[]; expiresAt?: number }
  /** A tenant of the user accepts only passkeys, and the user has none: one is added before the finish. */
  | { ok: true; kind: 'passkey-enrolment'; token: string }
  | { ok: true; kind: 'signed-in'; userId: string; redirectTo: string | null };

export type SignInOutcome = SignInProgress | SignInRefusal;

/**
 * A named step: nothing to go on to the next one, or the outcome that ends the sign-in. `S`: a
 * sign-in that carries more than the password's state (a passkey's assertion).
 */
export type SignInStep<S extends SignInState = SignInState> = (state: S, deps: SignInDeps) => Promise<SignInOutcome | void>;

/** Where a sign-in (or one of its steps) ended, on its span: the refusal's code or the next step. */
export const signInOutcomeAttributes = (outcome: SignInOutcome | void) => (outcome ? { 'gatehouse.sign_in.outcome': outcome.ok ? outcome.kind : outcome.code } : undefined);

/** With tracing on, each step is a span of the request's trace, named after it (`sign-in verifyPassword`). */
function tracedStep<S extends SignInState>(step: SignInStep<S>, state: S, deps: SignInDeps): Promise<SignInOutcome | void> {
  if (!activeTracer()) return step(state, deps);
  const name = step.name || 'step';
  return inSpan(`sign-in ${name}`, { attributes: { 'gatehouse.sign_in.step': name }, resultAttributes: signInOutcomeAttributes }, () => step(state, deps));
}

/** Runs the steps in order until one answers; a pipeline whose last step always answers. */
export async function runSteps<S extends SignInState>(steps: readonly SignInStep<S>[], state: S, deps: SignInDeps): Promise<SignInOutcome> {
  let outcome: SignInOutcome | undefined;
  try {
    for (const step of steps) {
      outcome = (await tracedStep(step, state, deps)) ?? undefined;
      if (outcome) return outcome;
    }
    throw new Error(`The sign-in ended without an answer after ${steps.map((s) => s.name).join(', ')}`);
  } finally {
    if (state.giveBack && !(outcome?.ok && outcome.kind === 'signed-in')) await state.giveBack();
  }
}

/** The account a step past the password works on (loaded by then). */
export function accountOf(state: SignInState): SignInAccount {
  if (!state.account) throw new Error('The sign-in has no account at this step');
  return state.account;
}

/** The state of a new attempt. */
export function newSignInState(fields: SignInState): SignInState {
  return { ...fields, userName: fields.userName.trim() };
}
