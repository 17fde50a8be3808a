import { randomUUID } from 'node:crypto';
import type { AppContext } from '@gatehouse/core';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

/** A signing key stored as the provider stores it, with the private half kept for minting tokens. */
export interface TestSigningKey {
  kid: string;
  alg: 'RS256';
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface SigningKeyOptions {
  status?: 'active' | 'retiring' | 'retired';
  retireAt?: Date | null;
  /** Broadcast `keys.changed` as a rotation does (default true); false leaves caches unaware. */
  announce?: boolean;
}

/** A fresh RS256 key pair whose kid is its thumbprint, not stored anywhere. */
export async function generateSigningKey(): Promise<TestSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, alg: 'RS256', privateKey, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
}

/** Inserts a signing key into `signing_keys` the way the provider does (private half encrypted). */
export async function insertSigningKey(context: AppContext, options: SigningKeyOptions = {}): Promise<TestSigningKey> {
  const key = await generateSigningKey();
  const privateJwk = { ...(await exportJWK(key.privateKey)), kid: key.kid, alg: key.alg, use: 'sig' };
  await context.dataSource.query(
    `INSERT INTO signing_keys (kid, alg, public_jwk, private_jwk_encrypted, status, retire_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [key.kid, key.alg, key.publicJwk, context.secrets.encrypt(JSON.stringify(privateJwk)), options.status ?? 'active', options.retireAt ?? null],
  );
  if (options.announce !== false) context.broadcast.publish('keys.changed', {});
  return key;
}

export interface AccessTokenOptions {
  sub?: string;
  roles?: unknown;
  scope?: string;
  issuer?: string;
  audience?: string;
  /** The client the token was issued to (`client_id`); the admin console's unless told. */
  clientId?: string;
  /** Seconds from now; negative for a token that has already expired. */
  expiresIn?: number;
  /** Header overrides (a kid the key does not have, another typ). */
  header?: { kid?: string; typ?: string };
  /** Claims set or removed (undefined) after the defaults. */
  claims?: Record<string, unknown>;
}

/**
 * Signs an admin API access token shaped like the provider's (RFC 9068), issued to the admin
 * console and valid unless told otherwise.
 */
export async function mintAccessToken(context: AppContext, key: TestSigningKey, options: AccessTokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    iss: options.issuer ?? context.config.oidc.issuer,
    aud: options.audience ?? context.config.oidc.adminApiAudience,
    sub: options.sub ?? randomUUID(),
    jti: randomUUID(),
    iat: now,
    exp: now + (options.expiresIn ?? 900),
    scope: options.scope ?? 'admin',
    client_id: options.clientId ?? context.config.oidc.adminClientId,
    roles: options.roles ?? [],
    ...options.claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: key.alg, kid: options.header?.kid ?? key.kid, typ: options.header?.typ ?? 'at+jwt' })
    .sign(key.privateKey);
}
