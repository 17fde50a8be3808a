import type { User } from 'oidc-client-ts';

/** The call a DPoP proof is made for (RFC 9449 §4.2): its URL, its method, and the server's nonce if it sent one. */
export interface ProofTarget {
  url: string;
  method: string;
  nonce?: string;
}

/** What authorizes one API call. */
export interface RequestAuthorization {
  /** The access token sent, to name it when the server refuses it. */
  token: string;
  /** `Authorization`, and `DPoP` with the proof when the token is sender-constrained. */
  headers: Record<string, string>;
}

/** Whether the provider bound `user`'s tokens to the SPA's key (`token_type: DPoP`, RFC 9449 §5). */
export function isSenderConstrained(user: Pick<User, 'token_type'>): boolean {
  return user.token_type?.toLowerCase() === 'dpop';
}

/** A proof's `htu`: the call's URL without its query and fragment (RFC 9449 §4.2). */
export function dpopTarget(url: string | URL): string {
  const target = new URL(url);
  return `${target.origin}${target.pathname}`;
}

/**
 * The headers that send `user`'s access token: the DPoP scheme and the proof for a bound token
 * (RFC 9449 §7.1), the Bearer scheme for one the provider did not bind. A bound token whose proof
 * could not be made goes without one: the server refuses it, and the 401 ends in a renewal.
 */
export function requestAuthorization(user: Pick<User, 'access_token' | 'token_type'>, proof: string | undefined): RequestAuthorization {
  const token = user.access_token;
  if (!isSenderConstrained(user)) return { token, headers: { Authorization: `Bearer ${token}` } };
  return { token, headers: proof ? { Authorization: `DPoP ${token}`, DPoP: proof } : { Authorization: `DPoP ${token}` } };
}

/**
 * The nonces the product's servers hand out in `DPoP-Nonce` (RFC 9449 §9), one per origin: the
 * next proof to that origin carries the latest, so a server that wants nonces is asked once.
 */
export class DpopNonces {
  private readonly byOrigin = new Map<string, string>();

  /** The nonce to put in a proof for `url`, if its server sent one. */
  for(url: string): string | undefined {
    return this.byOrigin.get(new URL(url).origin);
  }

  /**
   * Keeps the nonce `response` carries; answers it when the response refuses the call for want of
   * it (401 with `error="use_dpop_nonce"`), so the call is sent once more with a proof carrying it.
   */
  remember(url: string, response: Response): string | undefined {
    const nonce = response.headers.get('DPoP-Nonce');
    if (!nonce) return undefined;
    this.byOrigin.set(new URL(url).origin, nonce);
    const challenge = response.headers.get('WWW-Authenticate') ?? '';
    return response.status === 401 && /\berror="?use_dpop_nonce\b/.test(challenge) ? nonce : undefined;
  }
}
