import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { PasskeyOptions, PasskeyVerifyBody } from '@gatehouse/contracts';
import {
  AccountRequestError,
  passkeyOptions,
  passkeyRegister,
  passkeyRegisterOptions,
  passkeyVerify,
  type AccountResponse,
  type LoginResponse,
} from '../account-api';
import { runPrompt, type PromptFailure } from '../passkey-prompt';
import type { AccountT } from '../use-account-translation';
import { interpretLogin, type LoginOutcome } from './login-outcome';

/**
 * How a passkey attempt ended: with the server's answer (read as the password's is), or without
 * one, because the browser's prompt gave nothing or no readable answer came back.
 */
export type PasskeyAttempt = { kind: 'answered'; outcome: LoginOutcome } | { kind: PromptFailure } | { kind: 'unreachable' };

export interface PasskeySignIn {
  /** The sign-in in progress: any passkey of this browser. */
  interaction?: string;
  /** The second-factor step's token: one of that user's passkeys. */
  token?: string;
  /** Read once the passkey is given: the autofill's may come long after the page opened. */
  details: () => Pick<PasskeyVerifyBody, 'rememberLogin' | 'returnUrl'>;
  /** Offers the passkeys in the user-name field's autofill rather than in a prompt. */
  autofill?: boolean;
  /** Closes the prompt, or the autofill request, when the page moves on. */
  signal?: AbortSignal;
  /** Called when the browser gave a passkey, before the server checks it. */
  onCredential?: () => void;
  fallbackUrl: string;
}

/** A refused challenge is a login response too (an expired sign-in says where to start again). */
function refusalOf(response: AccountResponse<PasskeyOptions>, fallbackUrl: string): PasskeyAttempt {
  return { kind: 'answered', outcome: interpretLogin(response as AccountResponse<LoginResponse>, fallbackUrl) };
}

/** Runs `attempt`, a failure to reach the server being an end like the others. */
async function reaching(attempt: () => Promise<PasskeyAttempt>): Promise<PasskeyAttempt> {
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof AccountRequestError) return { kind: 'unreachable' };
    throw error;
  }
}

/** Signs in with a passkey: a fresh challenge, the browser's prompt (or autofill), then the server's check. */
export function signInWithPasskey({ interaction, token, details, autofill = false, signal, onCredential, fallbackUrl }: PasskeySignIn): Promise<PasskeyAttempt> {
  return reaching(async () => {
    const target = { ...(interaction ? { interaction } : {}), ...(token ? { token } : {}) };
    const challenge = await passkeyOptions(target);
    if (!challenge.ok || !challenge.body.options) return refusalOf(challenge, fallbackUrl);
    const optionsJSON = challenge.body.options as unknown as PublicKeyCredentialRequestOptionsJSON;
    const prompt = await runPrompt(() => startAuthentication({ optionsJSON, useBrowserAutofill: autofill }), signal);
    if ('failure' in prompt) return { kind: prompt.failure };
    onCredential?.();
    const response = prompt.credential as unknown as Record<string, unknown>;
    return { kind: 'answered', outcome: interpretLogin(await passkeyVerify({ ...target, ...details(), response }), fallbackUrl) };
  });
}

/** Adds the passkey a sign-in step asks for, then goes on with that sign-in. */
export function enrolPasskey(token: string, fallbackUrl: string, signal?: AbortSignal): Promise<PasskeyAttempt> {
  return reaching(async () => {
    const challenge = await passkeyRegisterOptions(token);
    if (!challenge.ok || !challenge.body.options) return refusalOf(challenge, fallbackUrl);
    const optionsJSON = challenge.body.options as unknown as PublicKeyCredentialCreationOptionsJSON;
    const prompt = await runPrompt(() => startRegistration({ optionsJSON }), signal);
    if ('failure' in prompt) return { kind: prompt.failure };
    const response = prompt.credential as unknown as Record<string, unknown>;
    return { kind: 'answered', outcome: interpretLogin(await passkeyRegister(token, response), fallbackUrl) };
  });
}

/** What a step says of an attempt that brought no answer: nothing when the page stopped it itself. */
export function unansweredNotice(kind: PromptFailure | 'unreachable', t: AccountT): { type: 'info' | 'error'; text: string } | undefined {
  switch (kind) {
    case 'aborted':
      return undefined;
    case 'cancelled':
      return { type: 'info', text: t('passkey.cancelled') };
    case 'unusable':
      return { type: 'error', text: t('passkey.unusable') };
    case 'unreachable':
      return { type: 'error', text: t('login.unknownError') };
  }
}
