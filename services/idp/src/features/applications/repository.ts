import type { AppContext } from '@gatehouse/core';

type Db = AppContext['dataSource'];

/** The status of the application with this name or id; undefined for an unknown one. */
export async function findApplicationStatus(db: Db, nameOrId: string): Promise<string | undefined> {
  const [row]: Array<{ status: string }> = await db.query('SELECT status FROM applications WHERE name = $1 OR id = $1 LIMIT 1', [nameOrId]);
  return row?.status;
}
