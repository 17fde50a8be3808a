import { authenticator } from 'otplib';
import type { DataSource, EntityManager } from 'typeorm';
import type { SecretBox } from './secret-box.js';

type Db = DataSource | EntityManager;

const STEP_SECONDS = 30;
// One step either side: a phone whose clock is a little off still works.
authenticator.options = { step: STEP_SECONDS, window: 1, digits: 6 };

export function generateTotpSecret(): string {
  return authenticator.generateSecret(20);
}

/** The otpauth:// URI an authenticator app reads (from a QR code). */
export function totpUri(secret: string, account: string, issuer = 'Gatehouse'): string {
  return authenticator.keyuri(account, issuer, secret);
}

/** The time step a code belongs to, or null when it matches none in the window. */
export function matchingTotpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = authenticator.checkDelta(code, secret);
  if (delta === null) return null;
  return Math.floor(now / 1000 / STEP_SECONDS) + delta;
}

/** A code for a secret at a moment (tests, enrolment confirmation). */
export function totpCode(secret: string, at = Date.now()): string {
  return authenticator.clone({ epoch: at }).generate(secret);
}

/**
 * Checks a code against the user's enrolled secret and accepts it at most once per time step: the
 * step is recorded with a compare-and-set, so a replayed or concurrent second use fails.
 */
export async function acceptTotpCode(db: Db, secrets: SecretBox, userId: string, code: string): Promise<boolean> {
  const [row] = await db.query('SELECT totp_secret_encrypted, totp_enabled_at FROM users WHERE id = $1', [userId]);
  if (!row?.totp_secret_encrypted || !row.totp_enabled_at) return false;
  const step = matchingTotpStep(secrets.decrypt(row.totp_secret_encrypted), code);
  if (step === null) return false;
  const result = await db.query(
    `UPDATE users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
    [userId, step],
  );
  return Array.isArray(result) ? Number(result[1]) === 1 : false;
}
