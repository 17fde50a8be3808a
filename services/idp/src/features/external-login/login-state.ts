import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '@gatehouse/core';
import { ExternalLoginRepository } from './repository.js';

/** A sign-in at Microsoft must come back within this time (Entra's own sign-in page lives about as long). */
export const STATE_TTL_SECONDS = 10 * 60;
/** Rows share the provider's table, so the expiry sweeper removes them too; no table of their own. */
const MODEL = 'ExternalLoginState';

/** What the callback needs from the request that sent the browser to Microsoft. */
export interface LoginState {
  /** PKCE verifier of the challenge sent with the authorization request. */
  codeVerifier: string;
  nonce: string;
  /** The provider interaction the sign-in finishes. */
  interaction: string;
  /** Where the portal asked to go back to, kept for the pages shown when the interaction is gone. */
  returnUrl: string | null;
  /** "Remember me" on the sign-in page: a persistent provider session. */
  remember: boolean;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** A PKCE verifier and its S256 challenge (RFC 7636). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash('sha256').update(verifier).digest()) };
}

/**
 * The server side of the OAuth `state`: random, single use, short-lived. Only its SHA-256 is
 * stored, so the table never holds a value that could be replayed at the callback.
 */
export class LoginStates {
  constructor(
    context: AppContext,
    private readonly repository = new ExternalLoginRepository(context),
  ) {}

  /** Stores what the callback will need and answers the state to send to Microsoft. */
  async issue(data: Omit<LoginState, 'nonce'>): Promise<{ state: string; nonce: string }> {
    const state = base64url(randomBytes(32));
    const nonce = base64url(randomBytes(32));
    const payload: LoginState = { ...data, nonce };
    await this.repository.storeState(MODEL, state, payload, data.interaction, STATE_TTL_SECONDS);
    return { state, nonce };
  }

  /**
   * Takes a state once: a compare-and-set, so of two requests with the same state (a replay, a
   * double click, two nodes) exactly one gets it. Undefined when unknown, used or expired.
   */
  async consume(state: string): Promise<LoginState | undefined> {
    if (!state || state.length > 200) return undefined;
    return this.repository.consumeState<LoginState>(MODEL, state);
  }
}
