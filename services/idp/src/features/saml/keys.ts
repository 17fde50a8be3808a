import { createHash, createPrivateKey, webcrypto, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { AppContext } from '@gatehouse/core';
import * as x509 from '@peculiar/x509';
import type { JWK } from 'jose';

x509.cryptoProvider.set(webcrypto as Crypto);

const RSA_SHA256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
/** How long the published keys are reused before the table is read again (a rotation also says so at once). */
const KEYS_TTL_MS = 60_000;
/** A certificate's validity: SAML peers trust the key it carries, not its dates; ten years keeps strict ones quiet. */
const VALIDITY_MS = 10 * 365 * 24 * 3600 * 1000;

/** One of the identity provider's signing keys, with the certificate SAML peers know it by. */
export interface SamlKey {
  kid: string;
  privateKey: KeyObject;
  /** The certificate in PEM. */
  certificatePem: string;
  /** The certificate's DER in base64, as metadata and signatures carry it. */
  certificateBase64: string;
}

interface KeyRow {
  kid: string;
  private_jwk_encrypted: string;
  created_at: Date;
}

/**
 * A self-signed certificate for an RSA signing key. Made only from the key, its id and its date
 * (serial from the key id, validity from its creation, RSA PKCS#1 v1.5 signatures being
 * deterministic): every node, and every restart, makes the very same certificate for a key.
 */
export async function certificateFor(jwk: JWK, createdAt: Date, subject: string): Promise<x509.X509Certificate> {
  const { kty, n, e, d, p, q, dp, dq, qi } = jwk;
  const privateKey = await webcrypto.subtle.importKey('jwk', { kty, n, e, d, p, q, dp, dq, qi }, RSA_SHA256, false, ['sign']);
  const publicKey = await webcrypto.subtle.importKey('jwk', { kty, n, e }, RSA_SHA256, true, ['verify']);
  // A positive serial (first bit clear) of 16 bytes.
  const serial = createHash('sha256').update(String(jwk.kid)).digest().subarray(0, 16);
  serial[0]! &= 0x7f;
  const notBefore = new Date(Math.floor(createdAt.getTime() / 1000) * 1000);
  return x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: `CN=${subject}`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + VALIDITY_MS),
    signingAlgorithm: RSA_SHA256,
    keys: { privateKey, publicKey },
  });
}

/**
 * The identity provider's SAML keys: the OIDC provider's RS256 keys, rotated with them (the
 * active one signs; a retiring one stays published in the metadata until its date). Certificates
 * are made once per key and kept.
 */
export class SamlKeys {
  private loaded?: { keys: SamlKey[]; at: number };
  private readonly certificates = new Map<string, Promise<x509.X509Certificate>>();
  private readonly unsubscribe: () => void;

  constructor(private readonly context: AppContext) {
    this.unsubscribe = context.broadcast.on('keys.changed', () => (this.loaded = undefined));
  }

  /** The published keys, the one that signs first. */
  async published(): Promise<SamlKey[]> {
    if (this.loaded && this.loaded.at + KEYS_TTL_MS > Date.now()) return this.loaded.keys;
    const rows: KeyRow[] = await this.context.dataSource.query(
      `SELECT kid, private_jwk_encrypted, created_at FROM signing_keys
        WHERE alg = 'RS256' AND (status = 'active' OR (status = 'retiring' AND retire_at > now()))
        ORDER BY CASE status WHEN 'active' THEN 0 ELSE 1 END, created_at DESC, kid`,
    );
    if (rows.length === 0) throw new Error('no RS256 signing key');
    const subject = new URL(this.context.config.server.publicUrl).hostname;
    const keys = await Promise.all(rows.map((row) => this.toKey(row, subject)));
    this.loaded = { keys, at: Date.now() };
    return keys;
  }

  /** The key that signs now. */
  async signing(): Promise<SamlKey> {
    return (await this.published())[0]!;
  }

  close(): void {
    this.unsubscribe();
  }

  private async toKey(row: KeyRow, subject: string): Promise<SamlKey> {
    const jwk = JSON.parse(this.context.secrets.decrypt(row.private_jwk_encrypted)) as JWK;
    let certificate = this.certificates.get(row.kid);
    if (!certificate) this.certificates.set(row.kid, (certificate = certificateFor(jwk, new Date(row.created_at), subject)));
    const cert = await certificate;
    return {
      kid: row.kid,
      privateKey: createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' }),
      certificatePem: cert.toString('pem'),
      certificateBase64: Buffer.from(cert.rawData).toString('base64'),
    };
  }
}
