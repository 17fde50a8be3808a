import { GLOBAL_TENANT_ID } from '@gatehouse/core';
import type { Queryable } from '../../db.js';

export interface DirectoryCounts {
  users: number;
  groups: number;
  apps: number;
  areas: number;
  tenants: number;
}

/** The directory's counts in one round trip; the Global tenant is a technical row, not a tenant anyone created. */
export async function countDirectory(db: Queryable): Promise<DirectoryCounts> {
  const [row] = await db.query<Array<Record<keyof DirectoryCounts, string>>>(
    `SELECT (SELECT count(*) FROM users) AS users,
            (SELECT count(*) FROM groups) AS groups,
            (SELECT count(*) FROM applications) AS apps,
            (SELECT count(*) FROM areas) AS areas,
            (SELECT count(*) FROM tenants WHERE id <> $1) AS tenants`,
    [GLOBAL_TENANT_ID],
  );
  return { users: Number(row!.users), groups: Number(row!.groups), apps: Number(row!.apps), areas: Number(row!.areas), tenants: Number(row!.tenants) };
}
