import { createHmac, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@gatehouse/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { SecretBox } from './secret-box.js';

type Db = DataSource | EntityManager;

/**
 * Crockford's base32: digits and lower-case letters without i, l, o and u, so that no two
 * characters are read alike. 32 symbols, 5 bits each.
 */
export const RECOVERY_CODE_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** Characters of a code (50 bits), shown in two groups of five. */
export const RECOVERY_CODE_LENGTH = 10;

const GROUP = RECOVERY_CODE_LENGTH / 2;
const WELL_FORMED = new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{${RECOVERY_CODE_LENGTH}}$`);
/** What a reader may type for a character the alphabet leaves out (Crockford's reading). */
const MISREAD: Record<string, string> = { o: '0', i: '1', l: '1' };

/** One new code, as shown to the user: `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)]!);
  return `${chars.slice(0, GROUP).join('')}-${chars.slice(GROUP).join('')}`;
}

/** `count` distinct new codes, as shown to the user (`xxxxx-xxxxx`). */
export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(newRecoveryCode());
  return [...codes];
}

/**
 * A code as typed, in the form its hash is taken of: lower-case, without spaces or dashes, a
 * misread letter (O, I, L) taken for the digit it looks like. Undefined when it cannot be a code.
 */
export function normalizeRecoveryCode(typed: string): string | undefined {
  const normalized = typed
    .toLowerCase()
    .replace(/[\s-]+/g, '')
    .replace(/[oil]/g, (c) => MISREAD[c]!);
  return WELL_FORMED.test(normalized) ? normalized : undefined;
}

/**
 * What is stored of a normalized code: a keyed SHA-256 (HMAC) bound to its user, so that neither a
 * copy of the database alone nor another user's codes help anyone guess it.
 */
export function recoveryCodeHash(secrets: SecretBox, userId: string, normalized: string): string {
  return createHmac('sha256', secrets.deriveKey('recovery-codes')).update(`${userId.toLowerCase()}:${normalized}`).digest('hex');
}

/**
 * Replaces the user's recovery codes with `codes` (as shown) in one transaction: the previous ones
 * stop working as these start. Two replacements at once are taken one after the other (the user's
 * row is locked first), so the user never holds the codes of both. Answers when they were made.
 */
export async function replaceRecoveryCodes(db: DataSource, secrets: SecretBox, userId: string, codes: readonly string[]): Promise<Date> {
  const hashes = codes.map((code) => recoveryCodeHash(secrets, userId, normalizeRecoveryCode(code)!));
  return db.transaction(async (em) => {
    const [[user]] = await em.query('UPDATE users SET recovery_codes_generated_at = now() WHERE id = $1 RETURNING recovery_codes_generated_at', [userId]);
    await em.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
    await em.query('INSERT INTO user_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])', [userId, hashes]);
    return user.recovery_codes_generated_at as Date;
  });
}

/** The user holds this recovery code, not used yet (a check only: {@link consumeRecoveryCode} decides). */
export async function holdsRecoveryCode(db: Db, secrets: SecretBox, userId: string, normalized: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM user_recovery_codes WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [
    userId,
    recoveryCodeHash(secrets, userId, normalized),
  ]);
  return rows.length > 0;
}

/**
 * Uses one of the user's recovery codes, once: a compare-and-set, so of two requests with the same
 * code (in parallel, or one after the other) exactly one gets true.
 */
export async function consumeRecoveryCode(db: Db, secrets: SecretBox, userId: string, normalized: string): Promise<boolean> {
  const result = await db.query('UPDATE user_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [
    userId,
    recoveryCodeHash(secrets, userId, normalized),
  ]);
  return Number(result[1] ?? 0) === 1;
}

/**
 * A tenant of the user (directly, or through one of their groups) accepts only phishing-resistant
 * second factors (passkeys, Microsoft): recovery codes are refused then.
 */
export async function phishingResistantRequired(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.query(
    `SELECT EXISTS (
       SELECT 1 FROM tenant_members tm JOIN tenants t ON t.id = tm.tenant_id
        WHERE t.phishing_resistant_only
          AND (tm.user_id = $1 OR tm.group_id IN (SELECT group_id FROM group_members WHERE user_id = $1))
     ) AS required`,
    [userId],
  );
  return Boolean(row?.required);
}
