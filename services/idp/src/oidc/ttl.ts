import type { TokenLifetimes } from '@gatehouse/contracts';
import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * Lifetimes, in seconds, of what the provider issues and a God user cannot change (the others are
 * the `TokenLifetimes` security setting, whose defaults are listed here too). Documented in the
 * README; short for what travels in URLs and browsers, longer for what a server keeps.
 */
export const TTL = {
  /** Codes are exchanged at once by the client's back end. */
  AuthorizationCode: 60,
  /** Defaults of the setting: opaque access tokens and ID tokens. */
  AccessToken: 60 * 60,
  IdToken: 60 * 60,
  /** JWT access tokens for the admin API: verified without a call back, so kept short. */
  AdminApiAccessToken: 15 * 60,
  ClientCredentials: 10 * 60,
  /** A sign-in in progress (login, second factor, consent). */
  Interaction: 60 * 60,
  /** A device's sign-in (RFC 8628): the user has this long to enter its code and confirm. */
  DeviceCode: 10 * 60,
  /** The provider session and the grants it holds. */
  Session: 14 * 24 * 60 * 60,
  Grant: 14 * 24 * 60 * 60,
  /** Refresh tokens rotate at every use; a browser app's expire sooner than a server's. */
  RefreshTokenPublic: 24 * 60 * 60,
  RefreshTokenConfidential: 14 * 24 * 60 * 60,
} as const;

/**
 * Longest life of a token signed with a key: how long a retired key stays published. The setting
 * keeps access and ID tokens to an hour at most, the longest default.
 */
export const KEY_RETIREMENT_SECONDS = Math.max(TTL.AccessToken, TTL.IdToken, TTL.AdminApiAccessToken) + 5 * 60;

/** A refresh token's life: a browser app's (no client secret) or a server's, as the setting says now. */
export function refreshTokenTtl(lifetimes: () => TokenLifetimes) {
  return (_ctx: KoaContextWithOIDC, _token: unknown, client: { clientAuthMethod: string }): number =>
    client.clientAuthMethod === 'none' ? lifetimes().refreshTokenPublicSeconds : lifetimes().refreshTokenConfidentialSeconds;
}

/**
 * A lifetime that `cap` may shorten: in a session signed in as another user (Identify As), nothing
 * issued outlives the impersonation.
 */
export function capped<Rest extends unknown[]>(
  cap: (ctx: KoaContextWithOIDC, seconds: number) => number,
  lifetime: (ctx: KoaContextWithOIDC, ...rest: Rest) => number,
): (ctx: KoaContextWithOIDC, ...rest: Rest) => number {
  return (ctx, ...rest) => cap(ctx, lifetime(ctx, ...rest));
}
