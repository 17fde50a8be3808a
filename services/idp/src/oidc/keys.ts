import type { AppContext } from '@gatehouse/core';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

/** Algorithms with a signing key: RS256 for everyone, ES256 and EdDSA for clients that ask. */
export const SIGNING_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
type Algorithm = (typeof SIGNING_ALGORITHMS)[number];

/** Serialises key creation and rotation across nodes. */
const KEYS_LOCK = 7_418_220_012;

interface KeyRow {
  kid: string;
  alg: string;
  status: 'active' | 'retiring' | 'retired';
  private_jwk_encrypted: string;
  created_at: Date;
  retire_at: Date | null;
}

async function newKey(context: AppContext, alg: Algorithm) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  return {
    kid,
    alg,
    publicJwk: { ...publicJwk, kid, alg, use: 'sig' },
    privateJwkEncrypted: context.secrets.encrypt(JSON.stringify(privateJwk)),
  };
}

async function insertKey(runner: { query: (sql: string, params?: unknown[]) => Promise<unknown> }, key: Awaited<ReturnType<typeof newKey>>) {
  await runner.query(
    `INSERT INTO signing_keys (kid, alg, public_jwk, private_jwk_encrypted, status) VALUES ($1, $2, $3, $4, 'active')`,
    [key.kid, key.alg, key.publicJwk, key.privateJwkEncrypted],
  );
}

/** Creates an active key for every algorithm that has none (first start). */
export async function ensureSigningKeys(context: AppContext): Promise<string[]> {
  const created: string[] = [];
  await context.dataSource.transaction(async (em) => {
    await em.query('SELECT pg_advisory_xact_lock($1)', [KEYS_LOCK]);
    const rows: Array<{ alg: string }> = await em.query(`SELECT DISTINCT alg FROM signing_keys WHERE status = 'active'`);
    const have = new Set(rows.map((r) => r.alg));
    for (const alg of SIGNING_ALGORITHMS) {
      if (have.has(alg)) continue;
      const key = await newKey(context, alg);
      await insertKey(em, key);
      created.push(key.kid);
    }
  });
  return created;
}

/**
 * Puts a new active key in place for every algorithm. The previous keys keep being published
 * (status retiring) until `retireAfterSeconds` have passed, so tokens they signed stay verifiable;
 * keys whose time has come are retired.
 */
export async function rotateSigningKeys(context: AppContext, retireAfterSeconds: number): Promise<{ added: string[]; retired: string[] }> {
  const added: string[] = [];
  let retired: string[] = [];
  await context.dataSource.transaction(async (em) => {
    await em.query('SELECT pg_advisory_xact_lock($1)', [KEYS_LOCK]);
    await em.query(
      `UPDATE signing_keys SET status = 'retiring', retire_at = now() + make_interval(secs => $1) WHERE status = 'active'`,
      [retireAfterSeconds],
    );
    for (const alg of SIGNING_ALGORITHMS) {
      const key = await newKey(context, alg);
      await insertKey(em, key);
      added.push(key.kid);
    }
    const [rows] = await em.query(
      `UPDATE signing_keys SET status = 'retired' WHERE status = 'retiring' AND retire_at <= now() RETURNING kid`,
    );
    retired = (rows as Array<{ kid: string }>).map((r) => r.kid);
  });
  return { added, retired };
}

/**
 * The private keys the provider signs with and publishes: active ones first (the provider signs
 * with the first key of an algorithm), then those retiring but not yet past their date.
 */
export async function loadSigningKeys(context: AppContext): Promise<{ keys: JWK[]; fingerprint: string }> {
  const rows: KeyRow[] = await context.dataSource.query(
    `SELECT kid, alg, status, private_jwk_encrypted, created_at, retire_at FROM signing_keys
      WHERE status = 'active' OR (status = 'retiring' AND retire_at > now())
      ORDER BY CASE status WHEN 'active' THEN 0 ELSE 1 END, created_at DESC, kid`,
  );
  return {
    keys: rows.map((row) => JSON.parse(context.secrets.decrypt(row.private_jwk_encrypted)) as JWK),
    fingerprint: rows.map((r) => `${r.kid}:${r.status}`).join(','),
  };
}

/** Changes whenever the set of published keys changes (a rotation, or a retiring key's date passing). */
export async function signingKeysFingerprint(context: AppContext): Promise<string> {
  const rows: Array<{ kid: string; status: string }> = await context.dataSource.query(
    `SELECT kid, status FROM signing_keys
      WHERE status = 'active' OR (status = 'retiring' AND retire_at > now())
      ORDER BY CASE status WHEN 'active' THEN 0 ELSE 1 END, created_at DESC, kid`,
  );
  return rows.map((r) => `${r.kid}:${r.status}`).join(',');
}
