import { findPublishedKeys, type AppContext } from '@gatehouse/core';
import { createLocalJWKSet, errors, jwtVerify, type JWK, type JWTPayload, type LocalJWKSet } from 'jose';

/** What the admin API learns from a verified access token. */
export interface AccessTokenClaims {
  /** The user the token was issued to (`sub`). */
  userId: string;
  /** The user's global roles in the Identity application when the token was issued (`roles`). */
  roles: string[];
  /** Granted scopes (`scope`, space-delimited in the token). */
  scopes: string[];
  /** The token's own id (`jti`), null when it has none. */
  tokenId: string | null;
  /**
   * The user acting on behalf of `userId` (RFC 8693 `act.sub`), present only in a token issued
   * while a God user is signed in as that user (Identify As).
   */
  actorId?: string;
  /** The impersonation the token was issued in (`act.impersonation_id`); absent when it names none. */
  impersonationId?: string;
  /** The thumbprint of the key the token is bound to (`cnf.jkt`, RFC 9449); absent for a token bound to none. */
  jkt?: string;
}

/** Who acts in a token issued while a God user is signed in as its user, and in which impersonation. */
export interface Acting {
  actorId: string;
  impersonationId?: string;
}

/** Why a token was refused; `reason` goes to the logs, never to the caller. */
export class InvalidTokenError extends Error {
  constructor(
    readonly reason: 'malformed' | 'unknown_key' | 'signature' | 'expired' | 'claims' | 'insufficient_scope',
    options?: { cause?: unknown },
  ) {
    super(`invalid access token: ${reason}`, options);
    this.name = 'InvalidTokenError';
  }
}

export interface AccessTokenVerifierOptions {
  /** A scope every token must carry; tokens without it are refused as `insufficient_scope`. */
  requiredScope?: string;
  /** Clock, in milliseconds; tests move it to step over the refresh intervals. */
  now?: () => number;
}

/** The scope the provider grants on the admin API audience (the idp's ADMIN_API_SCOPE). */
export const ADMIN_API_SCOPE = 'admin';
/** The provider signs admin API tokens with RS256; ES256 and EdDSA keys exist for clients that ask. */
const ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];
/** Keys are reread at least this often, so a rotation on another node without Redis is seen. */
export const KEYS_MAX_AGE_MS = 60_000;
/** At most one reread per this interval for tokens naming an unknown key id, so garbage kids cannot hammer the database. */
export const UNKNOWN_KID_REFRESH_INTERVAL_MS = 10_000;
/** Absorbs small clock differences between the provider's nodes and this one. */
const CLOCK_TOLERANCE_SECONDS = 5;
const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Tokens whose signature and claims were verified, remembered for their next calls. */
export const VERIFIED_TOKENS_KEPT = 5000;
/** A verified token is checked again at least this often. */
export const VERIFIED_TOKEN_MAX_AGE_MS = 60_000;

interface VerifiedToken {
  payload: JWTPayload;
  /** The key generation it was verified under: a key change forgets it. */
  generation: number;
  /** Until when it stands: its expiry, the key set's, and the max age, whichever comes first. */
  until: number;
}

interface KeySet {
  jwks: LocalJWKSet;
  /** When this set must be reread: the max age, or earlier when a retiring key's date comes. */
  expiresAt: number;
}


/**
 * Verifies the provider's JWT access tokens for the admin API locally, against the public halves
 * of the signing keys in the database: no call to the provider per request. Only tokens issued to
 * the admin console (`config.oidc.adminClientId`) are admin API tokens. The key set is cached,
 * reread when `keys.changed` is broadcast, when it is older than a minute or a retiring key's date
 * has passed, and (rate-limited) when a token names a key id it does not hold.
 */
export class AccessTokenVerifier {
  private cache: KeySet | undefined;
  private loading: Promise<KeySet> | undefined;
  /** Bumped on `keys.changed`: a read that started before the change must not be trusted after it. */
  private generation = 0;
  private lastUnknownKidRefresh = Number.NEGATIVE_INFINITY;
  /**
   * Tokens already verified, by audience and token: a console sends the same token on every call
   * for its lifetime, and verifying its signature (RSA through WebCrypto) costs more than the rest
   * of a list call. Only tokens that passed every check are kept; a key change forgets them all.
   */
  private readonly verified = new Map<string, VerifiedToken>();
  private readonly now: () => number;
  private readonly stopListening: () => void;

  constructor(
    private readonly context: AppContext,
    private readonly options: AccessTokenVerifierOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.stopListening = context.broadcast.on('keys.changed', () => this.invalidate());
  }

  /**
   * Whether `token` has the shape of a JWT at all; other bearer tokens (personal access tokens)
   * belong to another verifier.
   */
  recognizes(token: string): boolean {
    return JWS_COMPACT.test(token);
  }

  /** The token's claims; throws InvalidTokenError when it is not a valid admin API access token. */
  async verify(token: string): Promise<AccessTokenClaims> {
    return this.adminClaims(await this.verifiedPayload(token, this.context.config.oidc.adminApiAudience));
  }

  /**
   * The payload of a JWT access token the provider signed for `audience`: its signature, issuer,
   * type, expiry and audience are checked, against the same cached keys; whom it was issued to is
   * the caller's to check. Throws InvalidTokenError otherwise.
   */
  async verifiedPayload(token: string, audience: string): Promise<JWTPayload> {
    if (!this.recognizes(token)) throw new InvalidTokenError('malformed');
    const remembered = `${audience} ${token}`;
    const known = this.verified.get(remembered);
    if (known && known.generation === this.generation && this.now() < known.until) return known.payload;
    if (known) this.verified.delete(remembered);
    const generation = this.generation;
    let keys = await this.currentKeys();
    let payload: JWTPayload;
    try {
      payload = await this.verifyWith(token, keys, audience);
    } catch (error) {
      if (!(error instanceof InvalidTokenError) || error.reason !== 'unknown_key') throw error;
      const fresher = await this.keysAfterUnknownKid(keys);
      if (!fresher || fresher === keys) throw error;
      keys = fresher;
      payload = await this.verifyWith(token, keys, audience);
    }
    this.remember(remembered, payload, generation, keys);
    return payload;
  }

  private remember(remembered: string, payload: JWTPayload, generation: number, keys: KeySet): void {
    // A key change during the verification: the token is good for this call, not for the next.
    if (generation !== this.generation) return;
    const until = Math.min(Number(payload.exp) * 1000, keys.expiresAt, this.now() + VERIFIED_TOKEN_MAX_AGE_MS);
    if (!(until > this.now())) return;
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(remembered, { payload: Object.freeze(payload), generation, until });
  }

  /** Stops listening to key changes (the context's broadcast drops every listener when it closes anyway). */
  close(): void {
    this.stopListening();
  }

  private async verifyWith(token: string, keys: KeySet, audience: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, keys.jwks, {
        issuer: this.context.config.oidc.issuer,
        audience,
        algorithms: ALGORITHMS,
        // RFC 9068: the type keeps an ID token (or any other JWT we sign) from passing as an access token.
        typ: 'at+jwt',
        // Without exp a token would never expire; jose only checks exp when it is present.
        requiredClaims: ['sub', 'exp'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.now()),
      });
      return payload;
    } catch (error) {
      throw new InvalidTokenError(reasonOf(error), { cause: error });
    }
  }

  /** What an admin API token says of its caller, once its signature and audience are known good. */
  private adminClaims(payload: JWTPayload): AccessTokenClaims {
    if (typeof payload.sub !== 'string' || !UUID.test(payload.sub)) throw new InvalidTokenError('claims');
    // The admin audience is the admin console's: a token the provider issued to any other client
    // (a business application that asked for this resource) is no key to the administration.
    if (clientOf(payload) !== this.context.config.oidc.adminClientId) throw new InvalidTokenError('claims');
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    if (this.options.requiredScope && !scopes.includes(this.options.requiredScope)) throw new InvalidTokenError('insufficient_scope');
    const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is string => typeof r === 'string') : [];
    return { userId: payload.sub, roles, scopes, tokenId: typeof payload.jti === 'string' ? payload.jti : null, ...actingOf(payload), ...boundKeyOf(payload) };
  }

  private currentKeys(): Promise<KeySet> {
    if (this.cache && this.now() < this.cache.expiresAt) return Promise.resolve(this.cache);
    return this.load();
  }

  /**
   * Keys to retry with after a token named an unknown key id: the result of a read already under
   * way or finished since, else a new read if the rate limit allows, else none.
   */
  private async keysAfterUnknownKid(used: KeySet): Promise<KeySet | undefined> {
    if (this.loading) return this.loading;
    if (this.cache && this.cache !== used && this.now() < this.cache.expiresAt) return this.cache;
    if (this.now() - this.lastUnknownKidRefresh < UNKNOWN_KID_REFRESH_INTERVAL_MS) return undefined;
    this.lastUnknownKidRefresh = this.now();
    return this.load();
  }

  /** One read at a time: concurrent callers share it. */
  private load(): Promise<KeySet> {
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = this.read().then(
      (keys) => {
        if (this.loading === loading) this.loading = undefined;
        // A change broadcast during the read may not be in it: use it once, reread next time.
        if (generation !== this.generation) return { ...keys, expiresAt: 0 };
        this.cache = keys;
        return keys;
      },
      (error: unknown) => {
        if (this.loading === loading) this.loading = undefined;
        throw error;
      },
    );
    this.loading = loading;
    return loading;
  }

  private async read(): Promise<KeySet> {
    const rows = await findPublishedKeys(this.context.dataSource);
    const now = this.now();
    let expiresAt = now + KEYS_MAX_AGE_MS;
    for (const row of rows) if (row.retire_at) expiresAt = Math.min(expiresAt, new Date(row.retire_at).getTime());
    return {
      jwks: createLocalJWKSet({ keys: rows.map((row) => ({ ...row.public_jwk, kid: row.kid }) as JWK) }),
      expiresAt,
    };
  }

  private invalidate(): void {
    this.generation += 1;
    this.verified.clear();
    this.cache = undefined;
    this.loading = undefined;
  }
}

/**
 * The actor of a token issued while signed in as its user: `act.sub` (RFC 8693), a user id, and
 * the impersonation it was issued in (`act.impersonation_id`) when the token names it. An `act` of
 * any other shape is refused rather than ignored: the token would pass for the user's own.
 */
export function actingOf(claims: object): Acting | undefined {
  const { act } = claims as { act?: unknown };
  if (act === undefined) return undefined;
  const { sub, impersonation_id: id } = (act ?? {}) as { sub?: unknown; impersonation_id?: unknown };
  if (typeof sub !== 'string' || !UUID.test(sub)) throw new InvalidTokenError('claims');
  if (id !== undefined && (typeof id !== 'string' || !UUID.test(id))) throw new InvalidTokenError('claims');
  return { actorId: sub.toLowerCase(), ...(id === undefined ? {} : { impersonationId: id.toLowerCase() }) };
}

/**
 * The key a JWT access token is bound to: its `cnf.jkt` (RFC 9449 §6.1). A `cnf` naming anything
 * else (a certificate) is refused rather than ignored: the token would pass for a bearer token.
 */
export function boundKeyOf(payload: JWTPayload): { jkt?: string } {
  const { cnf } = payload as { cnf?: unknown };
  if (cnf === undefined) return {};
  const { jkt } = (cnf ?? {}) as { jkt?: unknown };
  if (typeof jkt !== 'string' || !jkt) throw new InvalidTokenError('claims');
  return { jkt };
}

/** The client the token was issued to: `client_id` (RFC 9068), else `azp`. */
export function clientOf(payload: JWTPayload): unknown {
  return payload.client_id !== undefined ? payload.client_id : payload.azp;
}

function reasonOf(error: unknown): InvalidTokenError['reason'] {
  if (error instanceof errors.JWKSNoMatchingKey) return 'unknown_key';
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (error instanceof errors.JWTClaimValidationFailed) return 'claims';
  return 'malformed';
}

