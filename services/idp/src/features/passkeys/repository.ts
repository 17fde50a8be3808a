import { PASSKEY_SUMMARY_COLUMNS, passkeySummaryOf, type PasskeySummary, type WebAuthnChallengePurpose } from '@gatehouse/core';
import type { DataSource, EntityManager } from 'typeorm';

type Db = DataSource | EntityManager;

/** What a challenge is bound to: the sign-in interaction, the user, the portal session (absent: none). */
export interface ChallengeBinding {
  purpose: WebAuthnChallengePurpose;
  interactionUid?: string;
  userId?: string;
  sessionUid?: string;
}

/** Stores a challenge's hash with what it is bound to, for `ttlSeconds`. */
export async function insertChallenge(db: Db, challengeHash: string, binding: ChallengeBinding, ttlSeconds: number): Promise<void> {
  await db.query(
    `INSERT INTO webauthn_challenges (challenge_hash, purpose, interaction_uid, user_id, session_uid, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [challengeHash, binding.purpose, binding.interactionUid ?? null, binding.userId ?? null, binding.sessionUid ?? null, ttlSeconds],
  );
}

/**
 * Uses a live challenge once, when it was issued for exactly this binding: of two requests with the
 * same challenge, one wins; a challenge of another interaction, user or session is left alone.
 */
export async function consumeChallenge(db: Db, challengeHash: string, binding: ChallengeBinding): Promise<boolean> {
  const rows: unknown[] = await db.query(
    `UPDATE webauthn_challenges SET consumed_at = now()
      WHERE challenge_hash = $1 AND purpose = $2 AND consumed_at IS NULL AND expires_at > now()
        AND interaction_uid IS NOT DISTINCT FROM $3 AND user_id IS NOT DISTINCT FROM $4 AND session_uid IS NOT DISTINCT FROM $5
      RETURNING id`,
    [challengeHash, binding.purpose, binding.interactionUid ?? null, binding.userId ?? null, binding.sessionUid ?? null],
  );
  return rowsOf(rows).length === 1;
}

/** A stored passkey as an assertion is checked against it. */
export interface StoredPasskey {
  id: string;
  userId: string;
  userName: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  signCount: number;
  transports: string[];
}

/** The passkey of a credential id, with its owner's user name; undefined when no one holds it. */
export async function findPasskey(db: Db, credentialId: string): Promise<StoredPasskey | undefined> {
  const [row] = await db.query(
    `SELECT p.id, p.user_id, u.user_name, p.credential_id, p.public_key, p.sign_count, p.transports
       FROM user_passkeys p JOIN users u ON u.id = p.user_id WHERE p.credential_id = $1`,
    [credentialId],
  );
  if (!row) return undefined;
  return {
    id: row.id,
    userId: row.user_id,
    userName: row.user_name,
    credentialId: row.credential_id,
    publicKey: new Uint8Array(row.public_key as Buffer),
    signCount: Number(row.sign_count),
    transports: row.transports ?? [],
  };
}

/** The credential ids (and transports) of a user's passkeys, for a browser to pick from or exclude. */
export async function credentialsOf(db: Db, userId: string): Promise<Array<{ id: string; transports: string[] }>> {
  const rows: Array<{ credential_id: string; transports: string[] | null }> = await db.query(
    'SELECT credential_id, transports FROM user_passkeys WHERE user_id = $1 ORDER BY created_at, id',
    [userId],
  );
  return rows.map((row) => ({ id: row.credential_id, transports: row.transports ?? [] }));
}

/** What a verified assertion says of its passkey. */
export interface PasskeyUse {
  counter: number;
  backedUp: boolean;
  device: string | null;
}

/**
 * Records a use of a passkey whose signature counter went forward (or that keeps none: both
 * zero), in one compare-and-set; false when the stored counter is already as far or further
 * (a cloned authenticator, or a parallel use that won).
 */
export async function recordPasskeyUse(db: Db, passkeyId: string, use: PasskeyUse): Promise<boolean> {
  const rows: unknown = await db.query(
    `UPDATE user_passkeys SET sign_count = $2, backed_up = $3, last_used_at = now(), last_used_device = $4
      WHERE id = $1 AND (sign_count < $2 OR ($2 = 0 AND sign_count = 0)) RETURNING id`,
    [passkeyId, use.counter, use.backedUp, use.device],
  );
  return rowsOf(rows).length === 1;
}

/** The user a passkey is made for: their stable id, names, and whether a tenant accepts only phishing-resistant factors. */
export interface PasskeyOwner {
  id: string;
  userName: string;
  displayName: string;
  passkeyCount: number;
  phishingResistantOnly: boolean;
}

// A tenant of the user, directly or through a group, that accepts only phishing-resistant factors.
const PHISHING_RESISTANT_ONLY = `EXISTS (
    SELECT 1 FROM tenant_members tm JOIN tenants t ON t.id = tm.tenant_id
     WHERE t.phishing_resistant_only
       AND (tm.user_id = u.id OR tm.group_id IN (SELECT group_id FROM group_members WHERE user_id = u.id)))`;

/** The owner-to-be of a passkey; `lock`: held until the transaction ends, so counts stay true for its change. */
export async function findPasskeyOwner(db: Db, userId: string, lock = false): Promise<PasskeyOwner | undefined> {
  if (lock) await db.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  const [row] = await db.query(
    `SELECT u.id, u.user_name, u.first_name, u.last_name, ${PHISHING_RESISTANT_ONLY} AS phishing_resistant_only,
            (SELECT count(*)::int FROM user_passkeys p WHERE p.user_id = u.id) AS passkey_count
       FROM users u WHERE u.id = $1`,
    [userId],
  );
  if (!row) return undefined;
  const displayName = [row.first_name, row.last_name].filter(Boolean).join(' ') || row.user_name;
  return { id: row.id, userName: row.user_name, displayName, passkeyCount: row.passkey_count, phishingResistantOnly: row.phishing_resistant_only };
}

/** A new passkey, as a verified registration gives it. */
export interface NewPasskey {
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  aaguid: string | null;
  name: string;
  deviceHint: string | null;
}

/** Adds a passkey; undefined when its credential is already registered (to this user or another). */
export async function insertPasskey(db: Db, passkey: NewPasskey): Promise<PasskeySummary | undefined> {
  const [row] = await db.query(
    `INSERT INTO user_passkeys (user_id, credential_id, public_key, sign_count, transports, device_type, backed_up, aaguid, name, device_hint)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (credential_id) DO NOTHING RETURNING ${PASSKEY_SUMMARY_COLUMNS}`,
    [
      passkey.userId,
      passkey.credentialId,
      Buffer.from(passkey.publicKey),
      passkey.counter,
      passkey.transports,
      passkey.deviceType,
      passkey.backedUp,
      passkey.aaguid,
      passkey.name,
      passkey.deviceHint,
    ],
  );
  return row ? passkeySummaryOf(row) : undefined;
}

/** Renames one of the user's passkeys; undefined when the user holds no passkey of that id. */
export async function renamePasskey(db: Db, userId: string, passkeyId: string, name: string): Promise<PasskeySummary | undefined> {
  const rows: unknown = await db.query(`UPDATE user_passkeys SET name = $3 WHERE id = $1 AND user_id = $2 RETURNING ${PASSKEY_SUMMARY_COLUMNS}`, [passkeyId, userId, name]);
  const [row] = rowsOf(rows);
  return row ? passkeySummaryOf(row) : undefined;
}

/** Removes one of the user's passkeys; answers its name, or undefined when the user holds no passkey of that id. */
export async function deletePasskey(db: Db, userId: string, passkeyId: string): Promise<string | undefined> {
  const rows: unknown = await db.query('DELETE FROM user_passkeys WHERE id = $1 AND user_id = $2 RETURNING name', [passkeyId, userId]);
  const [row] = rowsOf(rows);
  return row ? (row.name as string) : undefined;
}

/** The rows of an UPDATE/DELETE … RETURNING (the driver answers `[rows, count]`) or of a SELECT. */
function rowsOf(result: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(result) && Array.isArray(result[0])) return result[0] as Array<Record<string, unknown>>;
  return (result as Array<Record<string, unknown>>) ?? [];
}
