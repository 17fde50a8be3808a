import { GLOBAL_TENANT_ID, likePattern, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** A tenant as the pickers list it. */
export interface TenantListRecord {
  id: string;
  title: string;
  areaId: string | null;
  areaName: string | null;
  parentId: string | null;
}

export interface TenantListFilter {
  query: ListQuery;
  areaId?: string;
  /** The caller's areas; null for every area. */
  areaIds: string[] | null;
}

interface TenantListRow {
  id: string;
  title: string;
  area_id: string | null;
  area_name: string | null;
  parent_id: string | null;
  total?: string;
}

/** The list's WHERE clause over four parameters (Global's id, search pattern, area, the caller's areas) from $1. */
const TENANT_FILTER = `t.id <> $1
  AND ($2::text IS NULL OR t.title ILIKE $2)
  AND ($3::uuid IS NULL OR t.area_id = $3)
  AND ($4::uuid[] IS NULL OR t.area_id = ANY($4))`;

/**
 * One page of tenants, sorted and searched in SQL, with the total of the whole selection. The
 * Global tenant is never listed: dialogs offer it as their own "Global" option.
 */
export async function listTenants(db: Queryable, filter: TenantListFilter): Promise<{ items: TenantListRecord[]; count: number }> {
  const { query } = filter;
  const params = [GLOBAL_TENANT_ID, query.search ? likePattern(query.search) : null, filter.areaId ?? null, filter.areaIds];
  const rows = await db.query<TenantListRow[]>(
    `SELECT t.id, t.title, t.area_id, a.name AS area_name, t.parent_id, count(*) OVER () AS total
       FROM tenants t LEFT JOIN areas a ON a.id = t.area_id
      WHERE ${TENANT_FILTER}
      ORDER BY ${query.orderBy}, t.id
      LIMIT $5 OFFSET $6`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM tenants t WHERE ${TENANT_FILTER}`, params);
    return Number(row!.count);
  });
  return { items: rows.map((r) => ({ id: r.id, title: r.title, areaId: r.area_id, areaName: r.area_name, parentId: r.parent_id })), count };
}

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
