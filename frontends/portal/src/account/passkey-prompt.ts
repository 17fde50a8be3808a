import { WebAuthnAbortService } from '@simplewebauthn/browser';

/**
 * Why the browser's passkey prompt gave no credential: the user closed it (or chose none before it
 * timed out), the page stopped it (another prompt, a step left), or the browser or the
 * authenticator could not do it.
 */
export type PromptFailure = 'cancelled' | 'aborted' | 'unusable';

/** Reads the error of a WebAuthn call by its DOMException name, as `@simplewebauthn/browser` keeps it. */
function promptFailureOf(error: unknown): PromptFailure {
  const name = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  if (name === 'AbortError') return 'aborted';
  if (name === 'NotAllowedError') return 'cancelled';
  return 'unusable';
}

/**
 * Runs one browser prompt (`startAuthentication` or `startRegistration`). Aborting `signal` closes
 * it: a page that moves on leaves no prompt, nor an autofill request, behind.
 */
export async function runPrompt<T>(start: () => Promise<T>, signal?: AbortSignal): Promise<{ credential: T } | { failure: PromptFailure }> {
  if (signal?.aborted) return { failure: 'aborted' };
  const cancel = () => WebAuthnAbortService.cancelCeremony();
  signal?.addEventListener('abort', cancel);
  try {
    return { credential: await start() };
  } catch (error) {
    return { failure: signal?.aborted ? 'aborted' : promptFailureOf(error) };
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
