import type { AppContext } from '@gatehouse/core';

type Db = AppContext['dataSource'];

/** What the self-service calls read of the signed-in user. */
export interface ProfileUserRow {
  id: string;
  user_name: string;
  email: string;
  language: string;
  password_hash: string | null;
  totp_secret_encrypted: string | null;
  totp_enabled_at: Date | null;
}

/** The user's account; undefined once it has been deleted. */
export async function findProfileUser(db: Db, userId: string): Promise<ProfileUserRow | undefined> {
  const [user]: ProfileUserRow[] = await db.query(
    'SELECT id, user_name, email, language, password_hash, totp_secret_encrypted, totp_enabled_at FROM users WHERE id = $1',
    [userId],
  );
  return user;
}

/** Stores a new authenticator secret (encrypted), pending its first code. */
export async function startTotpEnrolment(db: Db, userId: string, encryptedSecret: string): Promise<void> {
  await db.query('UPDATE users SET totp_secret_encrypted = $2, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [userId, encryptedSecret]);
}

/**
 * Turns the pending enrolment of `encryptedSecret` on, `step` being the first code's time step.
 * Only a pending enrolment is confirmed: of two parallel confirmations, one wins (false for the other).
 */
export async function confirmTotpEnrolment(db: Db, userId: string, step: number | null, encryptedSecret: string): Promise<boolean> {
  const [, confirmed] = await db.query(
    'UPDATE users SET totp_enabled_at = now(), totp_last_step = $2 WHERE id = $1 AND totp_enabled_at IS NULL AND totp_secret_encrypted = $3',
    [userId, step, encryptedSecret],
  );
  return Boolean(confirmed);
}

/** Removes the authenticator app. */
export async function removeTotp(db: Db, userId: string): Promise<void> {
  await db.query('UPDATE users SET totp_secret_encrypted = NULL, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [userId]);
}
