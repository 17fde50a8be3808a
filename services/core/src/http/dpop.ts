import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Redis } from 'ioredis';
import { EmbeddedJWK, calculateJwkThumbprint, decodeProtectedHeader, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../logging/logger.js';

/** The algorithms a DPoP proof may be signed with (RFC 9449 §4.2): asymmetric ones only, never `none` or an HMAC. */
export const DPOP_ALGORITHMS = ['ES256', 'EdDSA', 'Ed25519', 'PS256', 'RS256'] as const;
/** How far a proof's `iat` may lie from this node's clock, either way, in seconds. */
export const DPOP_PROOF_WINDOW_SECONDS = 60;
/** A proof of more than this is no proof (an RSA key of 4096 bits fits several times over). */
const MAX_PROOF_LENGTH = 8192;
/** The longest `jti` kept: enough for any random identifier. */
const MAX_JTI_LENGTH = 256;
/** JWK members that only a private or a symmetric key has. */
const SECRET_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const AUTHORIZATION = /^(Bearer|DPoP) +([\x21-\x7e]+) *$/i;

/** The access token an `Authorization` header presents, and under which scheme (RFC 6750, RFC 9449 §7.1). */
export interface PresentedToken {
  scheme: 'Bearer' | 'DPoP';
  token: string;
}

/** The token of an `Authorization: Bearer …` or `Authorization: DPoP …` header; undefined for anything else. */
export function presentedToken(authorization: string | undefined): PresentedToken | undefined {
  const match = AUTHORIZATION.exec(authorization ?? '');
  if (!match) return undefined;
  return { scheme: match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: match[2]! };
}

/** What a refusal tells the caller (RFC 6750 §3.1, RFC 9449 §7.1). */
export type TokenErrorCode = 'invalid_token' | 'invalid_dpop_proof' | 'insufficient_scope';

/**
 * The `WWW-Authenticate` challenge of a refused request, in the scheme it used: a DPoP challenge
 * names the algorithms a proof may use. Without credentials at all, the Bearer challenge.
 */
export function tokenChallenge(scheme: PresentedToken['scheme'] | undefined, error?: TokenErrorCode): string {
  if (scheme !== 'DPoP') return error ? `Bearer error="${error}"` : 'Bearer';
  const algs = `algs="${DPOP_ALGORITHMS.join(' ')}"`;
  return error ? `DPoP error="${error}", ${algs}` : `DPoP ${algs}`;
}

/**
 * Why a token's presentation was refused: `invalid_token` when the scheme does not match the
 * token's binding or a bound token comes without a proof, `invalid_dpop_proof` when the proof does
 * not hold. `reason` goes to the
 * logs, never to the caller.
 */
export class DPoPError extends Error {
  constructor(
    readonly error: 'invalid_token' | 'invalid_dpop_proof',
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`DPoP refused: ${reason}`, options);
    this.name = 'DPoPError';
  }
}

/** A request as a DPoP proof speaks of it. */
export interface DPoPRequest {
  method: string;
  /** The addresses it may have been sent to: scheme, host and path, without query or fragment. */
  urls: readonly string[];
  /** Each `DPoP` header it carries, as sent. */
  proofs: readonly string[];
}

export interface DPoPVerifierOptions {
  /** Where users reach the product (PUBLIC_URL): proofs name its origin. */
  publicUrl: string;
  /** Whether the `X-Forwarded-*` headers of a request are to be believed (TRUST_PROXY). */
  trustProxy: boolean;
  /** Where the proofs already used are remembered, for every node; this process otherwise. */
  redis?: Redis;
  logger?: Logger;
  /** Keeps apart, in one Redis, the proofs of deployments with different public URLs. */
  namespace?: string;
  /** Clock, in milliseconds; tests move it. */
  now?: () => number;
}

/** base64url(SHA-256(value)): a proof's `ath` for an access token. */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

const failed = (reason: string, cause?: unknown) => new DPoPError('invalid_dpop_proof', reason, cause === undefined ? undefined : { cause });

/**
 * The resource servers' side of DPoP (RFC 9449 §7): whether a request presents its access token as
 * the token's binding requires. A token bound to a key (`cnf.jkt`) must come under the DPoP scheme
 * with one proof, signed by that key, for this request's method and address, fresh, used once, and
 * naming this token; a token bound to nothing must come under the Bearer scheme. Proofs already
 * used are remembered in Redis when it is configured, so no node accepts one twice, and in this
 * process otherwise.
 */
export class DPoPVerifier {
  private readonly used: RateLimiterAbstract;
  private readonly origin: string;
  private readonly now: () => number;

  constructor(private readonly options: DPoPVerifierOptions) {
    this.origin = new URL(options.publicUrl).origin;
    this.now = options.now ?? Date.now;
    // A proof stands from DPOP_PROOF_WINDOW_SECONDS before its iat to as long after: its jti is kept as long.
    const duration = 2 * DPOP_PROOF_WINDOW_SECONDS + 1;
    const memory = new RateLimiterMemory({ keyPrefix: 'dpop-jti', points: 1, duration });
    this.used = options.redis
      ? // While Redis is not connected, proofs are remembered in memory at once rather than wait for it.
        new RateLimiterRedis({
          storeClient: options.redis,
          keyPrefix: `${options.namespace ?? 'gatehouse'}:dpop-jti`,
          points: 1,
          duration,
          insuranceLimiter: memory,
          rejectIfRedisNotReady: true,
        })
      : memory;
  }

  /**
   * The request as a proof speaks of it: its method, its address as the client addressed it (the
   * public URL's origin and the request's path; when the proxy is trusted, also the origin it
   * forwards) and its DPoP headers, or `proofs` when the request carries its proof elsewhere (a
   * websocket's handshake). `url`: the address as it reached the product, before any mount took
   * its prefix away (Koa's `ctx.originalUrl`: under a base path, a mounted app's `req.url` has lost it).
   */
  requestOf(req: IncomingMessage, proofs?: readonly string[], url: string = req.url ?? '/'): DPoPRequest {
    const path = url.split(/[?#]/, 1)[0]!;
    const urls = [`${this.origin}${path}`];
    const forwarded = this.options.trustProxy ? forwardedOrigin(req) : undefined;
    if (forwarded && forwarded !== this.origin) urls.push(`${forwarded}${path}`);
    return { method: req.method ?? 'GET', urls, proofs: proofs ?? req.headersDistinct.dpop ?? [] };
  }

  /**
   * Checks that a verified token came as its binding requires: `jkt` is the thumbprint the token is
   * bound to (its `cnf.jkt`), undefined for a token bound to nothing. Throws DPoPError otherwise.
   */
  async check(request: DPoPRequest, presented: PresentedToken, jkt: string | undefined): Promise<void> {
    if (jkt === undefined) {
      if (presented.scheme === 'DPoP') throw new DPoPError('invalid_token', 'a token bound to no key under the DPoP scheme');
      return;
    }
    // RFC 9449 §7.2: a bound token presented as a bearer token is refused, proof or not.
    if (presented.scheme !== 'DPoP') throw new DPoPError('invalid_token', 'a bound token under the Bearer scheme');
    await this.verifyProof(request, presented.token, jkt);
  }

  /**
   * The key a token request proves (RFC 9449 §5), for a grant the provider does not handle itself
   * (token exchange): its one proof, for this method and address, fresh, used once and naming no
   * access token. The key's thumbprint, or undefined when the request carries no proof; throws
   * DPoPError for a proof that does not hold.
   */
  async tokenRequestKey(request: DPoPRequest): Promise<string | undefined> {
    if (request.proofs.length === 0) return undefined;
    if (request.proofs.length > 1) throw failed('several proofs');
    const { payload, jkt } = await this.signedProof(request.proofs[0]!);
    this.checkClaims(payload, request, undefined);
    await this.spend(`${jkt}:${String(payload.jti)}`);
    return jkt;
  }

  /** Verifies the request's one proof for `accessToken`, bound to the key whose thumbprint is `jkt`; throws DPoPError otherwise. */
  private async verifyProof(request: DPoPRequest, accessToken: string, jkt: string): Promise<void> {
    // A bound token without its proof is as good as no token (RFC 9449 §7.1); two proofs, a bad proof.
    if (request.proofs.length === 0) throw new DPoPError('invalid_token', 'no proof');
    if (request.proofs.length > 1) throw failed('several proofs');
    const proof = await this.signedProof(request.proofs[0]!);
    this.checkClaims(proof.payload, request, accessToken);
    if (proof.jkt !== jkt) throw failed('signed by another key than the token is bound to');
    // Last: a proof refused for anything else is not spent.
    await this.spend(`${jkt}:${String(proof.payload.jti)}`);
  }

  /** A proof's claims once its signature by the key in its header holds, and that key's thumbprint. */
  private async signedProof(proof: string): Promise<{ payload: JWTPayload; jkt: string }> {
    if (proof.length > MAX_PROOF_LENGTH) throw failed('proof too long');
    const jwk = publicJwkOf(proof);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(proof, EmbeddedJWK, { algorithms: [...DPOP_ALGORITHMS], typ: 'dpop+jwt', currentDate: new Date(this.now()) }));
    } catch (error) {
      throw failed('signature or header', error);
    }
    return { payload, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
  }

  /** The claims of a proof for this request; `accessToken`: the token it must name (`ath`), undefined at the token endpoint, where it names none. */
  private checkClaims(payload: JWTPayload, request: DPoPRequest, accessToken: string | undefined): void {
    const { jti, iat, htm, htu, ath } = payload;
    if (typeof jti !== 'string' || !jti || jti.length > MAX_JTI_LENGTH) throw failed('jti');
    if (typeof iat !== 'number' || !Number.isFinite(iat)) throw failed('iat');
    if (Math.abs(this.now() / 1000 - iat) > DPOP_PROOF_WINDOW_SECONDS) throw failed('iat out of the window');
    if (htm !== request.method) throw failed('htm');
    const addressed = typeof htu === 'string' ? withoutQuery(htu) : undefined;
    if (!addressed || !request.urls.some((url) => withoutQuery(url) === addressed)) throw failed('htu');
    if (accessToken === undefined ? ath !== undefined : typeof ath !== 'string' || ath !== accessTokenHash(accessToken)) throw failed('ath');
  }

  /** Remembers a proof as used; throws when it was already. A store that fails lets it through (logged). */
  private async spend(key: string): Promise<void> {
    try {
      await this.used.consume(createHash('sha256').update(key).digest('base64url'));
    } catch (error) {
      if (error instanceof RateLimiterRes) throw failed('replayed');
      this.options.logger?.warn({ err: (error as Error).message }, 'DPoP proof store unavailable');
    }
  }
}

/** The proof's embedded key, public only: a key with a private or secret part is no proof key. */
function publicJwkOf(proof: string): JWK {
  let jwk: unknown;
  try {
    jwk = decodeProtectedHeader(proof).jwk;
  } catch (error) {
    throw failed('malformed', error);
  }
  if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) throw failed('no jwk');
  if ((jwk as JWK).kty === 'oct' || SECRET_JWK_MEMBERS.some((member) => member in jwk)) throw failed('a private key in the header');
  return jwk as JWK;
}

/** An address as proofs compare it (RFC 9449 §4.3): normalised, without query or fragment; undefined when it is none. */
function withoutQuery(address: string): string | undefined {
  const url = URL.parse(address);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  url.search = '';
  url.hash = '';
  return url.href;
}

/** The origin a trusted proxy says the client addressed (X-Forwarded-Proto and -Host, first values), as Koa reads them. */
function forwardedOrigin(req: IncomingMessage): string | undefined {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.split(',', 1)[0]?.trim();
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const protocol = encrypted ? 'https' : (first(req.headers['x-forwarded-proto']) ?? 'http');
  const host = first(req.headers['x-forwarded-host']) ?? req.headers.host;
  if (!host) return undefined;
  return URL.parse(`${protocol}://${host}`)?.origin;
}
