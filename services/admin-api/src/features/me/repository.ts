import type { Queryable } from '../../db.js';

export interface MeRow {
  id: string;
  user_name: string;
  first_name: string | null;
  last_name: string | null;
  email: string;
  language: string;
}

/** The signed-in user's account; undefined once it has been deleted. */
export async function findMe(db: Queryable, userId: string): Promise<MeRow | undefined> {
  const [row] = await db.query<MeRow[]>('SELECT id, user_name, first_name, last_name, email, language FROM users WHERE id = $1', [userId]);
  return row;
}
