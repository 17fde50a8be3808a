import type { Queryable } from '../../../db.js';

export interface AreaRow {
  id: string;
  name: string;
}

/** The areas a caller may put users into (null: every area), by name. */
export async function areasInScope(db: Queryable, areaIds: string[] | null): Promise<AreaRow[]> {
  return db.query<AreaRow[]>(`SELECT id, name FROM areas WHERE $1::uuid[] IS NULL OR id = ANY($1::uuid[]) ORDER BY name, id`, [areaIds]);
}

/**
 * Which of `userNames` already belong to a user, compared as the unique index compares them
 * (`normalized_user_name` is `lower(user_name)`, computed by PostgreSQL as insertUser does).
 * Answers the names as given.
 */
export async function existingUserNames(db: Queryable, userNames: string[]): Promise<Set<string>> {
  if (userNames.length === 0) return new Set();
  const rows = await db.query<Array<{ name: string }>>(
    `SELECT n.name FROM unnest($1::text[]) AS n(name)
      WHERE EXISTS (SELECT 1 FROM users u WHERE u.normalized_user_name = lower(n.name))`,
    [userNames],
  );
  return new Set(rows.map((row) => row.name));
}

/** A user as the user-name change reads it. */
export interface RenameTarget {
  id: string;
  user_name: string;
  email: string;
}

/** The user whose user name is `userName` (any case), row-locked until the transaction ends. */
export async function findUserByNameForUpdate(db: Queryable, userName: string): Promise<RenameTarget | undefined> {
  const rows = await db.query<RenameTarget[]>(
    `SELECT id, user_name, email FROM users WHERE normalized_user_name = lower($1) FOR UPDATE`,
    [userName],
  );
  return rows[0];
}

/** Whether another user than `exceptId` holds the user name `userName` (any case). */
export async function userNameHeldByOther(db: Queryable, userName: string, exceptId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(`SELECT 1 FROM users WHERE normalized_user_name = lower($1) AND id <> $2`, [userName, exceptId]);
  return rows.length > 0;
}

/** Renames the user and sets their e-mail, keeping the normalized columns in step. */
export async function renameUser(db: Queryable, id: string, userName: string, email: string, modifiedById: string): Promise<void> {
  await db.query(
    // Typed parameters: used both as a column value and in lower(), PostgreSQL cannot infer one type.
    `UPDATE users SET user_name = $2::text, normalized_user_name = lower($2::text), email = $3::text, normalized_email = lower($3::text),
                      modified_by_id = $4, modified_on = now()
      WHERE id = $1`,
    [id, userName, email, modifiedById],
  );
}
