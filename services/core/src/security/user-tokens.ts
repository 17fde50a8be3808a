import type { DataSource, EntityManager } from 'typeorm';
import type { AppContext } from '../context.js';
import type { USER_TOKEN_PURPOSES } from '../domain/constants.js';
import { randomToken, sha256 } from './passwords.js';

export type TokenPurpose = (typeof USER_TOKEN_PURPOSES)[number];

type Db = DataSource | EntityManager;

export interface UserTokenRow {
  id: string;
  user_id: string;
  purpose: TokenPurpose;
  context: Record<string, unknown>;
  attempts: number;
  expires_at: Date;
}

/**
 * Single-use secrets handed to a user (links in mails, the token of a sign-in step): 256 random
 * bits, of which only the SHA-256 is stored. Pass a transaction's manager as `db` to store the
 * token with the change that issues it (an invitation and its audit row).
 */
export async function issueUserToken(
  context: AppContext,
  options: { userId: string; purpose: TokenPurpose; ttlSeconds: number; data?: Record<string, unknown> },
  db: Db = context.dataSource,
): Promise<{ id: string; token: string }> {
  const token = randomToken(32);
  const [row] = await db.query(
    `INSERT INTO user_tokens (user_id, purpose, token_hash, context, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5)) RETURNING id`,
    [options.userId, options.purpose, sha256(token), options.data ?? {}, options.ttlSeconds],
  );
  return { id: row.id as string, token };
}

/** A live (unconsumed, unexpired) token of that purpose, or undefined. */
export async function findUserToken(context: AppContext, token: string, purpose: TokenPurpose): Promise<UserTokenRow | undefined> {
  if (!token || token.length > 200) return undefined;
  const [row] = await context.dataSource.query(
    `SELECT id, user_id, purpose, context, attempts, expires_at FROM user_tokens
      WHERE token_hash = $1 AND purpose = $2 AND consumed_at IS NULL AND expires_at > now()`,
    [sha256(token), purpose],
  );
  return row;
}

/** Marks a token used; false when another request used it first. */
export async function consumeUserToken(context: AppContext, id: string): Promise<boolean> {
  const result = await context.dataSource.query(
    'UPDATE user_tokens SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL AND expires_at > now()',
    [id],
  );
  return Number(result[1]) === 1;
}

export async function updateTokenData(context: AppContext, id: string, data: Record<string, unknown>): Promise<void> {
  await context.dataSource.query('UPDATE user_tokens SET context = $2 WHERE id = $1', [id, data]);
}

/** Ends every live token of a purpose for a user (a new reset link replaces the previous one). */
export async function revokeUserTokens(context: AppContext, userId: string, purpose: TokenPurpose, db: Db = context.dataSource): Promise<void> {
  await db.query('UPDATE user_tokens SET consumed_at = now() WHERE user_id = $1 AND purpose = $2 AND consumed_at IS NULL', [
    userId,
    purpose,
  ]);
}

/**
 * Deletes the tokens that expired more than a day ago (used or not): nothing reads them any more,
 * and only their hashes were kept. Answers how many.
 */
export async function purgeExpiredUserTokens(db: Db): Promise<number> {
  const result = (await db.query(`DELETE FROM user_tokens WHERE expires_at < now() - interval '1 day'`)) as [unknown, number];
  return Number(result[1] ?? 0);
}
