import type { Queryable } from '../../db.js';

export interface SecurityConfigRow {
  title: string;
  body: Record<string, unknown>;
  modified_on: Date;
  /** Who saved it last: their name, or null once their account is deleted. */
  user_name: string | null;
  first_name: string | null;
  last_name: string | null;
}

const COLUMNS = `c.title, c.body, c.modified_on, u.user_name, u.first_name, u.last_name`;

/** The stored configurations among `titles` (a setting never saved has no row). */
export async function findSecurityConfigs(db: Queryable, titles: readonly string[]): Promise<SecurityConfigRow[]> {
  return db.query<SecurityConfigRow[]>(
    `SELECT ${COLUMNS} FROM security_configs c LEFT JOIN users u ON u.id = c.modified_by_id WHERE c.title = ANY($1)`,
    [[...titles]],
  );
}

/** The stored body of one configuration, locked until the transaction ends (two saves cannot both diff against the same state). */
export async function lockSecurityConfig(db: Queryable, title: string): Promise<{ body: Record<string, unknown> } | undefined> {
  const [row] = await db.query<Array<{ body: Record<string, unknown> }>>('SELECT body FROM security_configs WHERE title = $1 FOR UPDATE', [title]);
  return row;
}

/** Creates or replaces a configuration's document, dated and signed by who saved it. */
export async function saveSecurityConfig(
  db: Queryable,
  row: { title: string; description: string; body: Record<string, unknown>; modifiedById: string },
): Promise<void> {
  await db.query(
    `INSERT INTO security_configs (title, description, body, modified_by_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (title) DO UPDATE SET body = EXCLUDED.body, modified_by_id = EXCLUDED.modified_by_id, modified_on = now()`,
    [row.title, row.description, row.body, row.modifiedById],
  );
}
