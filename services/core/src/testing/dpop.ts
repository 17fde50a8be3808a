import { randomUUID } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { accessTokenHash } from '../http/dpop.js';

/** A client's DPoP key pair: what it signs proofs with, the public JWK it shows, and the thumbprint tokens are bound to. */
export interface DPoPKey {
  alg: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
  /** RFC 7638 thumbprint of the public key: a bound token's `cnf.jkt`. */
  jkt: string;
}

/** A fresh key pair as a DPoP client holds one (ES256 unless told). */
export async function dpopKey(alg = 'ES256'): Promise<DPoPKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { alg, privateKey, publicKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

export interface DPoPProofOptions {
  /** The access token the proof goes with (`ath`); none for a token request. */
  token?: string;
  /** Seconds since the epoch; now unless told. */
  iat?: number;
  jti?: string;
  /** Claims set or removed (undefined) after the defaults. */
  claims?: Record<string, unknown>;
  /** Header members set after the defaults. */
  header?: Record<string, unknown>;
}

/** A DPoP proof (RFC 9449 §4.2) signed by `key` for `method` at `url`. */
export function dpopProof(key: DPoPKey, method: string, url: string, options: DPoPProofOptions = {}): Promise<string> {
  const payload: Record<string, unknown> = {
    htm: method,
    htu: url,
    iat: options.iat ?? Math.floor(Date.now() / 1000),
    jti: options.jti ?? randomUUID(),
    ...(options.token === undefined ? {} : { ath: accessTokenHash(options.token) }),
    ...options.claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk, ...options.header }).sign(key.privateKey);
}
