import type { DataSource, EntityManager } from 'typeorm';

type Db = DataSource | EntityManager;

/** The kinds of factor a user may hold besides the password. */
export const FACTOR_KINDS = ['passkeys', 'totp', 'recoveryCodes'] as const;
export type FactorKind = (typeof FACTOR_KINDS)[number];

/** A passkey as its owner or an administrator sees it: names and dates, never the key. */
export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  lastUsedDevice: string | null;
  deviceHint: string | null;
  backedUp: boolean;
  deviceType: 'singleDevice' | 'multiDevice';
}

/** A user's factors besides the password, as shown in "My security" and on the console's user page. */
export interface FactorSummary {
  passkeys: PasskeySummary[];
  totp: { enrolled: boolean; enrolledAt: Date | null };
  recoveryCodes: { remaining: number; generatedAt: Date | null };
  /** The e-mailed code at each sign-in, as the user's own setting (a tenant may also ask for it). */
  emailCode: boolean;
}

export function passkeySummaryOf(row: Record<string, unknown>): PasskeySummary {
  return {
    id: row.id as string,
    name: row.name as string,
    createdAt: row.created_at as Date,
    lastUsedAt: (row.last_used_at as Date | null) ?? null,
    lastUsedDevice: (row.last_used_device as string | null) ?? null,
    deviceHint: (row.device_hint as string | null) ?? null,
    backedUp: row.backed_up as boolean,
    deviceType: row.device_type === 'multiDevice' ? 'multiDevice' : 'singleDevice',
  };
}

export const PASSKEY_SUMMARY_COLUMNS = 'id, name, created_at, last_used_at, last_used_device, device_hint, backed_up, device_type';

/** The factors of one user (undefined when there is no such user). */
export async function factorSummary(db: Db, userId: string): Promise<FactorSummary | undefined> {
  const [user] = await db.query(
    `SELECT u.totp_enabled_at, u.two_factor_enabled, u.recovery_codes_generated_at,
            (SELECT count(*)::int FROM user_recovery_codes c WHERE c.user_id = u.id AND c.used_at IS NULL) AS remaining
       FROM users u WHERE u.id = $1`,
    [userId],
  );
  if (!user) return undefined;
  const passkeys = await db.query(`SELECT ${PASSKEY_SUMMARY_COLUMNS} FROM user_passkeys WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
  return {
    passkeys: (passkeys as Record<string, unknown>[]).map(passkeySummaryOf),
    totp: { enrolled: user.totp_enabled_at !== null, enrolledAt: user.totp_enabled_at },
    recoveryCodes: { remaining: user.remaining, generatedAt: user.remaining > 0 ? user.recovery_codes_generated_at : null },
    emailCode: user.two_factor_enabled,
  };
}

/**
 * Takes factors off an account (an administrator's reset, a user who lost their device): passkeys,
 * the authenticator app, recovery codes. Pass a transaction's manager to do it with the change that
 * records it. Answers what was actually removed.
 */
export async function removeFactors(db: Db, userId: string, kinds: readonly FactorKind[]): Promise<FactorKind[]> {
  const removed: FactorKind[] = [];
  if (kinds.includes('passkeys')) {
    const result = await db.query('DELETE FROM user_passkeys WHERE user_id = $1', [userId]);
    if (Number(result[1] ?? 0) > 0) removed.push('passkeys');
  }
  if (kinds.includes('totp')) {
    const result = await db.query(
      'UPDATE users SET totp_secret_encrypted = NULL, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1 AND totp_secret_encrypted IS NOT NULL',
      [userId],
    );
    if (Number(result[1] ?? 0) > 0) removed.push('totp');
  }
  if (kinds.includes('recoveryCodes')) {
    const result = await db.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
    await db.query('UPDATE users SET recovery_codes_generated_at = NULL WHERE id = $1', [userId]);
    if (Number(result[1] ?? 0) > 0) removed.push('recoveryCodes');
  }
  return removed;
}

/** Deletes the WebAuthn challenges past their five minutes, used or not: nothing reads them any more. Answers how many. */
export async function purgeExpiredWebAuthnChallenges(db: Db): Promise<number> {
  const result = (await db.query('DELETE FROM webauthn_challenges WHERE expires_at < now()')) as [unknown, number];
  return Number(result[1] ?? 0);
}
