import { passwordPolicySchema, type PasswordPolicy } from '@gatehouse/contracts';
import { estimatePasswordStrength, weaknessReason } from '@gatehouse/contracts/password-strength';
import type { DataSource, EntityManager } from 'typeorm';
import type { Language } from '../domain/constants.js';
import type { FieldError } from '../errors/app-error.js';
import type { PasswordHasher } from './passwords.js';
import { recordWebhookEvent } from '../webhooks/events.js';

type Db = DataSource | EntityManager;

/** Title of the security configuration that holds the password policy. */
export const PASSWORD_POLICY_CONFIG = 'PasswordPolicy';

// The schema (ranges and defaults) is the contracts' one: the console edits it, the SPAs show it.
const policySchema = passwordPolicySchema;

export type { PasswordPolicy };
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = policySchema.parse({});

/**
 * The policy in force: the `PasswordPolicy` security configuration (edited by a God user) over the
 * defaults. A malformed document falls back to the defaults rather than weakening anything.
 */
export async function loadPasswordPolicy(db: Db): Promise<PasswordPolicy> {
  const [row] = await db.query('SELECT body FROM security_configs WHERE title = $1', [PASSWORD_POLICY_CONFIG]);
  const parsed = policySchema.safeParse(row?.body ?? {});
  return parsed.success ? parsed.data : DEFAULT_PASSWORD_POLICY;
}

/** What a password is judged with besides the policy. */
export interface PasswordJudgement {
  /** Words the password should not be built on: the user's name, e-mail address, first and last names. */
  userInputs?: readonly (string | null | undefined)[];
  /** The caller's language: the strength's reason is given in it. */
  language?: Language;
}

/**
 * Every rule the password breaks, as field errors whose codes are i18n keys. Its strength is
 * estimated once the character rules are met (a password still too short is not worth guessing
 * at): below the policy's `minStrength`, `password.too_weak` says why, in the caller's language.
 */
export async function checkPasswordRules(
  password: string,
  policy: PasswordPolicy,
  field = 'newPassword',
  judgement: PasswordJudgement = {},
): Promise<FieldError[]> {
  const broken: FieldError[] = [];
  if (password.length < policy.minLength) broken.push({ field, code: 'password.too_short', params: { min: policy.minLength } });
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) broken.push({ field, code: 'password.uppercase' });
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) broken.push({ field, code: 'password.lowercase' });
  if (policy.requireDigit && !/\p{Nd}/u.test(password)) broken.push({ field, code: 'password.digit' });
  if (policy.requireSymbol && !/[^\p{L}\p{Nd}\s]/u.test(password)) broken.push({ field, code: 'password.symbol' });
  if (broken.length || policy.minStrength === 0) return broken;
  const userInputs = (judgement.userInputs ?? []).filter((input): input is string => Boolean(input));
  const strength = await estimatePasswordStrength(password, { userInputs, language: judgement.language });
  if (strength.score < policy.minStrength) broken.push({ field, code: 'password.too_weak', params: { reason: weaknessReason(strength) } });
  return broken;
}

/** A user's own words, which a password of theirs should not be built on: user name, e-mail address, first and last names. */
export async function userWords(db: Db, userId: string): Promise<string[]> {
  const [row] = await db.query('SELECT user_name, email, first_name, last_name FROM users WHERE id = $1', [userId]);
  return row ? [row.user_name, row.email, row.first_name, row.last_name].filter((word): word is string => Boolean(word)) : [];
}

/**
 * Whether the password must be replaced before a sign-in goes on: a temporary one (set by an
 * administrator, never chosen by its user) always, even without rotation; else past the policy's age.
 */
export function isPasswordExpired(changedAt: Date | null, policy: PasswordPolicy, now = new Date()): boolean {
  if (!changedAt) return true;
  if (policy.maxAgeDays === 0) return false;
  return now.getTime() - changedAt.getTime() > policy.maxAgeDays * 86_400_000;
}

/** True when the password matches the current one or one of the last `historySize`. */
export async function isRecentPassword(
  db: Db,
  hasher: PasswordHasher,
  userId: string,
  password: string,
  policy: PasswordPolicy,
): Promise<boolean> {
  if (policy.historySize === 0) return false;
  const [current] = await db.query('SELECT password_hash FROM users WHERE id = $1', [userId]);
  const history: Array<{ password_hash: string }> = await db.query(
    'SELECT password_hash FROM user_password_history WHERE user_id = $1 ORDER BY created_at DESC LIMIT $2',
    [userId, Math.max(0, policy.historySize - 1)],
  );
  const hashes = [current?.password_hash, ...history.map((h) => h.password_hash)].filter((h): h is string => Boolean(h));
  // Verified one after the other: the hasher bounds concurrency anyway, and the first match ends it.
  for (const hash of hashes) if (await hasher.verify(hash, password)) return true;
  return false;
}

/**
 * Stores a new password: the previous hash goes to the history (trimmed to the policy's size), the
 * change date is set, and the failure counters are cleared. Run inside the caller's transaction.
 */
export async function storeNewPassword(db: Db, userId: string, newHash: string, policy: PasswordPolicy): Promise<void> {
  await db.query(
    `INSERT INTO user_password_history (user_id, password_hash)
     SELECT id, password_hash FROM users WHERE id = $1 AND password_hash IS NOT NULL`,
    [userId],
  );
  await db.query(
    `DELETE FROM user_password_history WHERE user_id = $1 AND id NOT IN (
       SELECT id FROM user_password_history WHERE user_id = $1 ORDER BY created_at DESC LIMIT $2)`,
    [userId, Math.max(0, policy.historySize - 1)],
  );
  await db.query(
    `UPDATE users SET password_hash = $2, password_changed_at = now(), failed_attempts = 0, lockout_count = 0,
                      lockout_end = NULL, modified_on = now()
      WHERE id = $1`,
    [userId, newHash],
  );
  const [user] = await db.query('SELECT user_name FROM users WHERE id = $1', [userId]);
  await recordWebhookEvent(db, { type: 'user.password_changed', data: { userId, userName: (user as { user_name?: string } | undefined)?.user_name ?? null } });
}
