import { isPasswordExpired, issueUserToken } from '@gatehouse/core';
import type { TwoFactorMethod } from '@gatehouse/contracts';
import { completeSignIn, finishSignIn } from './finish.js';
import type { SignInAccount } from './repository.js';
import { STEP_TOKEN_SECONDS, sendSignInCode, type CodeData } from './sign-in-code.js';
import { accountOf, type SecondFactorChoice, type SignInDeps, type SignInOutcome, type SignInState, type SignInStep, type StepContext } from './sign-in-state.js';

/** What the token of a step after the password carries: the interaction and where the attempt came from. */
export function stepContextOf(state: SignInState): StepContext {
  const { returnUrl, applicationName, ip, userAgent } = state.source;
  return { interaction: state.interaction?.uid ?? '', remember: state.interaction?.remember ?? false, returnUrl, applicationName, ip, userAgent };
}

/**
 * An expired password, or a temporary one an administrator set, must be replaced by one the user
 * chooses before the sign-in goes on (a step with its own token).
 */
/** The expired-password step's token: the sign-in's context and how the user was proven before it. */
export interface ExpiredPasswordData extends StepContext {
  amr?: string[];
}

export const checkPasswordExpiry: SignInStep = async (state, deps) => {
  const account = accountOf(state);
  if (!isPasswordExpired(account.passwordChangedAt, await deps.passwordPolicy())) return;
  // What proved the user so far goes with the step: a passkey needs no second factor after the change.
  const data: ExpiredPasswordData = { ...stepContextOf(state), amr: state.proof.amr };
  const { token } = await issueUserToken(deps.context, { userId: account.id, purpose: 'ExpiredPassword', ttlSeconds: STEP_TOKEN_SECONDS, data: { ...data } });
  return { ok: true, kind: 'expired-password', token, temporary: !account.passwordChangedAt };
};

/** What a second-factor step's token holds; its `method` is the code it accepts, none for `passkey` (a passkey only). */
export type SecondFactorData = Omit<CodeData, 'method'> & { method: CodeData['method'] | 'passkey' };

/** How a user gives the second factor: the method asked for first, every one offered, and the code the step's token accepts. */
export interface SecondFactorChoices {
  method: TwoFactorMethod;
  methods: SecondFactorChoice[];
  code: SecondFactorData['method'];
}

/**
 * The second factors a user may give: a passkey first when they hold one, else the authenticator
 * app, else a mailed code (never mailed to a user who holds a passkey or an app); and a recovery
 * code while one is left. A tenant that accepts only phishing-resistant factors takes a passkey
 * alone; its users who hold none give the code as before, then add one before the sign-in ends.
 */
export function secondFactorChoices(account: SignInAccount): SecondFactorChoices {
  const passkey = account.passkeyCount > 0;
  const app = Boolean(account.totpEnabledAt);
  const usual = app ? 'totp' : 'email';
  if (account.phishingResistantOnly) return passkey ? { method: 'passkey', methods: ['passkey'], code: 'passkey' } : { method: usual, methods: [usual], code: usual };
  const method = passkey ? 'passkey' : usual;
  const methods: SecondFactorChoice[] = [method, ...(passkey && app ? (['totp'] as const) : []), ...(account.hasRecoveryCodes ? (['recovery'] as const) : [])];
  return { method, methods, code: app ? 'totp' : method };
}

/** A second factor, when the user or a tenant asks for one: a passkey, the authenticator app's code, or a mailed one. */
export const requireSecondFactor: SignInStep = async (state, deps) => {
  const account = accountOf(state);
  if (!account.secondFactorRequired) return;
  const { method, methods, code } = secondFactorChoices(account);
  const { id, token } = await issueUserToken(deps.context, {
    userId: account.id,
    purpose: 'SignInCode',
    ttlSeconds: STEP_TOKEN_SECONDS,
    data: { ...stepContextOf(state), method: code, resends: 0, sentAt: Date.now() } satisfies SecondFactorData,
  });
  if (code !== 'email') return { ok: true, kind: 'second-factor', token, method, methods };
  const expiresAt = await sendSignInCode(deps.context, deps.mailer, account, id);
  return { ok: true, kind: 'second-factor', token, method, methods, expiresAt };
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
