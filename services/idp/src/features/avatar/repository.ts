import type { AppContext } from '@gatehouse/core';

type Db = AppContext['dataSource'];

/** The picture row of a user, as found by the hash of an e-mail. */
export interface AvatarRow {
  user_id: string;
  /** The user's current e-mail: the row is theirs only while the hash still matches it. */
  email: string;
  content_hash: string;
  content_type: string;
  /** Null when a folder store keeps the bytes. */
  content: Buffer | null;
}

/** The user's e-mail, or undefined once the account has been deleted. */
export async function findAvatarOwner(db: Db, userId: string): Promise<{ id: string; email: string } | undefined> {
  const [user]: Array<{ id: string; email: string }> = await db.query('SELECT id, email FROM users WHERE id = $1', [userId]);
  return user;
}

/** Sets the user's picture (one per user); `content` is null when the bytes are kept elsewhere. */
export async function upsertAvatar(
  db: Db,
  row: { userId: string; emailHash: string; contentHash: string; contentType: string; size: number; content: Buffer | null },
): Promise<void> {
  await db.query(
    `INSERT INTO user_avatars (user_id, email_hash, content_hash, content_type, size, content, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (user_id) DO UPDATE
        SET email_hash = EXCLUDED.email_hash, content_hash = EXCLUDED.content_hash, content_type = EXCLUDED.content_type,
            size = EXCLUDED.size, content = EXCLUDED.content, updated_at = EXCLUDED.updated_at`,
    [row.userId, row.emailHash, row.contentHash, row.contentType, row.size, row.content],
  );
}

/** The content hash of the user's current picture, if any. */
export async function findAvatarContentHash(db: Db, userId: string): Promise<string | undefined> {
  const [row]: Array<{ content_hash: string }> = await db.query('SELECT content_hash FROM user_avatars WHERE user_id = $1', [userId]);
  return row?.content_hash;
}

/** Whether any user's picture still has these bytes. */
export async function isContentInUse(db: Db, contentHash: string): Promise<boolean> {
  const [row]: Array<{ used: boolean }> = await db.query('SELECT EXISTS (SELECT 1 FROM user_avatars WHERE content_hash = $1) AS used', [contentHash]);
  return Boolean(row?.used);
}

/** The newest picture uploaded under this e-mail hash, with its owner's current e-mail. */
export async function findAvatarByEmailHash(db: Db, emailHash: string, withContent: boolean): Promise<AvatarRow | undefined> {
  const [row]: AvatarRow[] = await db.query(
    `SELECT a.user_id, u.email, a.content_hash, a.content_type, ${withContent ? 'a.content' : 'NULL::bytea AS content'}
       FROM user_avatars a JOIN users u ON u.id = a.user_id
      WHERE a.email_hash = $1
      ORDER BY a.updated_at DESC
      LIMIT 1`,
    [emailHash],
  );
  return row;
}
