import type { Queryable } from '../../db.js';

/** The fields of a tenant the MFA switch reads and answers. */
export interface TenantTwoModeAuth {
  id: string;
  title: string;
  requiredTwoModeAuthentification: boolean;
}

interface TenantRow {
  id: string;
  title: string;
  required_two_mode_authentification: boolean;
}

const toTenant = (row: TenantRow): TenantTwoModeAuth => ({
  id: row.id,
  title: row.title,
  requiredTwoModeAuthentification: row.required_two_mode_authentification,
});

/** Reads the tenant and locks its row until the transaction ends, so two switches cannot interleave. */
export async function findTenantForUpdate(db: Queryable, id: string): Promise<TenantTwoModeAuth | undefined> {
  const rows = await db.query<TenantRow[]>(
    `SELECT id, title, required_two_mode_authentification FROM tenants WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] && toTenant(rows[0]);
}

/** Sets the tenant's MFA requirement and answers the tenant as it now stands. */
export async function updateTwoModeAuth(db: Queryable, id: string, enable: boolean, modifiedById: string): Promise<TenantTwoModeAuth> {
  // TypeORM's raw queries return [rows, affected] for UPDATE … RETURNING.
  const [rows] = await db.query<[TenantRow[], number]>(
    `UPDATE tenants SET required_two_mode_authentification = $2, modified_by_id = $3, modified_on = now()
      WHERE id = $1
      RETURNING id, title, required_two_mode_authentification`,
    [id, enable, modifiedById],
  );
  return toTenant(rows[0]!);
}

/** The user's login name as it is now, for audit rows; null when the user no longer exists. */
export async function findUserName(db: Queryable, userId: string): Promise<string | null> {
  const rows = await db.query<Array<{ user_name: string }>>(`SELECT user_name FROM users WHERE id = $1`, [userId]);
  return rows[0]?.user_name ?? null;
}
