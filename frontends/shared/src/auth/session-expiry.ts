/** The claims of an ID token that say when the session ends. */
export interface SessionClaims {
  auth_time?: number;
  /** A session end (epoch seconds) some providers add; ours does not. */
  exp_time?: number;
}

/** The spec's session length when the provider does not say (exp_time missing). */
export const DEFAULT_SESSION_MS = 24 * 60 * 60 * 1000;

/**
 * When the session ends, in epoch ms: the `exp_time` claim when present, else 24 hours after the
 * sign-in (`auth_time`, or `signedInAt` when the token does not carry it).
 */
export function sessionExpiresAt(claims: SessionClaims | undefined, signedInAt: number): number {
  if (typeof claims?.exp_time === 'number') return claims.exp_time * 1000;
  const start = typeof claims?.auth_time === 'number' ? claims.auth_time * 1000 : signedInAt;
  return start + DEFAULT_SESSION_MS;
}
