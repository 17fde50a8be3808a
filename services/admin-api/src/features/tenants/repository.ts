import type { HierarchyItem, Tenant, TenantTreeNode } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, likePattern, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';
import { MAX_DEPTH } from '../directory/lookups.js';

export interface TenantListFilter {
  query: ListQuery;
  areaId?: string;
  /** The caller's areas; null for every area. */
  areaIds: string[] | null;
  isUserCustomized?: boolean;
  creation?: Tenant['auto'];
  /** Only the children of this tenant. */
  parentId?: string;
}

interface TenantRow {
  id: string;
  title: string;
  area_id: string | null;
  area_name: string | null;
  parent_id: string | null;
  parent_title: string | null;
  tax_number: string | null;
  vies_number: string | null;
  group_alias: string | null;
  creation_type: Tenant['auto'];
  is_user_customized: boolean;
  required_two_mode_authentification: boolean;
  phishing_resistant_only: boolean;
  children_count: string | number;
  modified_on: Date;
  total?: string;
}

/** The columns of a tenant as the API answers it, over `tenants t`. */
const TENANT_COLUMNS = `t.id, t.title, t.area_id, a.name AS area_name, t.parent_id, p.title AS parent_title,
       t.tax_number, t.vies_number, t.group_alias, t.creation_type, t.is_user_customized,
       t.required_two_mode_authentification, t.phishing_resistant_only, t.modified_on,
       (SELECT count(*) FROM tenants c WHERE c.parent_id = t.id) AS children_count`;
const TENANT_FROM = `tenants t LEFT JOIN areas a ON a.id = t.area_id LEFT JOIN tenants p ON p.id = t.parent_id`;

const toTenant = (row: TenantRow): Tenant => ({
  id: row.id,
  title: row.title,
  areaId: row.area_id,
  areaName: row.area_name,
  parentId: row.parent_id,
  parentTitle: row.parent_title,
  taxNumber: row.tax_number,
  viesNumber: row.vies_number,
  groupAlias: row.group_alias,
  auto: row.creation_type,
  isUserCustomized: row.is_user_customized,
  requiredTwoModeAuthentification: row.required_two_mode_authentification,
  phishingResistantOnly: row.phishing_resistant_only,
  childrenCount: Number(row.children_count),
  modifiedOn: row.modified_on.toISOString(),
});

/** The list's sortable fields and the expressions they sort by (children_count is an output column). */
export const TENANT_SORT = {
  title: 't.title',
  areaName: 'a.name',
  modifiedOn: 't.modified_on',
  parentTitle: 'p.title',
  childrenCount: 'children_count',
};

/** The list's WHERE clause over its seven parameters from $1. */
const TENANT_FILTER = `t.id <> $1
  AND ($2::text IS NULL OR t.title ILIKE $2)
  AND ($3::uuid IS NULL OR t.area_id = $3)
  AND ($4::uuid[] IS NULL OR t.area_id = ANY($4))
  AND ($5::boolean IS NULL OR t.is_user_customized = $5)
  AND ($6::varchar IS NULL OR t.creation_type = $6)
  AND ($7::uuid IS NULL OR t.parent_id = $7)`;

function filterParams(filter: TenantListFilter): unknown[] {
  const { query } = filter;
  return [
    GLOBAL_TENANT_ID,
    query.search ? likePattern(query.search) : null,
    filter.areaId ?? null,
    filter.areaIds,
    filter.isUserCustomized ?? null,
    filter.creation ?? null,
    filter.parentId ?? null,
  ];
}

/**
 * One page of tenants, sorted and searched in SQL, with the total of the whole selection. The
 * Global tenant is never listed: dialogs offer it as their own "Global" option.
 */
export async function listTenants(db: Queryable, filter: TenantListFilter): Promise<{ items: Tenant[]; count: number }> {
  const { query } = filter;
  const params = filterParams(filter);
  const rows = await db.query<TenantRow[]>(
    `SELECT ${TENANT_COLUMNS}, count(*) OVER () AS total
       FROM ${TENANT_FROM}
      WHERE ${TENANT_FILTER}
      ORDER BY ${query.orderBy}, t.id
      LIMIT $8 OFFSET $9`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM tenants t WHERE ${TENANT_FILTER}`, params);
    return Number(row!.count);
  });
  return { items: rows.map(toTenant), count };
}

/** Every tenant of the selection, in the list's order, a batch at a time after `skip` (the export). */
export async function listTenantBatch(db: Queryable, filter: TenantListFilter): Promise<Tenant[]> {
  const rows = await db.query<TenantRow[]>(
    `SELECT ${TENANT_COLUMNS}
       FROM ${TENANT_FROM}
      WHERE ${TENANT_FILTER}
      ORDER BY ${filter.query.orderBy}, t.id
      LIMIT $8 OFFSET $9`,
    [...filterParams(filter), filter.query.top, filter.query.skip],
  );
  return rows.map(toTenant);
}

/** One tenant as the API answers it; undefined when there is no such tenant. */
export async function findTenantById(db: Queryable, id: string): Promise<Tenant | undefined> {
  const rows = await db.query<TenantRow[]>(`SELECT ${TENANT_COLUMNS} FROM ${TENANT_FROM} WHERE t.id = $1`, [id]);
  return rows[0] && toTenant(rows[0]);
}

/**
 * The ancestors of each tenant, root first (order 0) down to its parent, in one walk up the tree
 * for the whole page.
 */
export async function findHierarchies(db: Queryable, ids: string[]): Promise<Map<string, HierarchyItem[]>> {
  const byTenant = new Map<string, HierarchyItem[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byTenant;
  const rows = await db.query<Array<{ tenant_id: string; id: string; title: string; depth: number }>>(
    `WITH RECURSIVE up(tenant_id, ancestor_id, depth) AS (
       SELECT t.id, t.parent_id, 1 FROM tenants t WHERE t.id = ANY($1::uuid[]) AND t.parent_id IS NOT NULL
       UNION ALL
       SELECT u.tenant_id, t.parent_id, u.depth + 1
         FROM up u JOIN tenants t ON t.id = u.ancestor_id
        WHERE t.parent_id IS NOT NULL AND u.depth < $2
     )
     SELECT u.tenant_id, a.id, a.title, u.depth
       FROM up u JOIN tenants a ON a.id = u.ancestor_id
      ORDER BY u.tenant_id, u.depth DESC`,
    [ids, MAX_DEPTH],
  );
  for (const row of rows) {
    const items = byTenant.get(row.tenant_id)!;
    items.push({ id: row.id, title: row.title, order: items.length });
  }
  return byTenant;
}

/** The ids of the tenant's ancestors, its parent first. */
export async function findAncestorIds(db: Queryable, id: string): Promise<string[]> {
  const rows = await db.query<Array<{ id: string }>>(
    `WITH RECURSIVE up(id, depth) AS (
       SELECT parent_id, 1 FROM tenants WHERE id = $1 AND parent_id IS NOT NULL
       UNION ALL
       SELECT t.parent_id, u.depth + 1 FROM up u JOIN tenants t ON t.id = u.id WHERE t.parent_id IS NOT NULL AND u.depth < $2
     )
     SELECT id FROM up ORDER BY depth`,
    [id, MAX_DEPTH],
  );
  return rows.map((row) => row.id);
}

/** The tree the tenant belongs to, from its root ancestor down, children by title; undefined when there is no such tenant. */
export async function findTree(db: Queryable, id: string): Promise<TenantTreeNode | undefined> {
  const ancestors = await findAncestorIds(db, id);
  const rootId = ancestors.length ? ancestors[ancestors.length - 1]! : id;
  const rows = await db.query<Array<{ id: string; title: string; area_id: string | null; parent_id: string | null }>>(
    `WITH RECURSIVE down(id, depth) AS (
       SELECT id, 0 FROM tenants WHERE id = $1
       UNION ALL
       SELECT t.id, d.depth + 1 FROM down d JOIN tenants t ON t.parent_id = d.id WHERE d.depth < $2
     )
     SELECT t.id, t.title, t.area_id, t.parent_id FROM down d JOIN tenants t ON t.id = d.id
      ORDER BY t.title, t.id`,
    [rootId, MAX_DEPTH],
  );
  const nodes = new Map<string, TenantTreeNode>(rows.map((row) => [row.id, { id: row.id, title: row.title, areaId: row.area_id, children: [] }]));
  // Rows come by title: appending keeps every node's children in that order.
  for (const row of rows) if (row.id !== rootId && row.parent_id) nodes.get(row.parent_id)?.children.push(nodes.get(row.id)!);
  return nodes.get(rootId);
}

/** The fields of a tenant a change reads, its row locked until the transaction ends. */
export interface LockedTenant {
  id: string;
  title: string;
  areaId: string | null;
  parentId: string | null;
  taxNumber: string | null;
  viesNumber: string | null;
  groupAlias: string | null;
}

/**
 * Reads the tenant and locks its row: FOR UPDATE for a change of the tenant itself, FOR SHARE for
 * a tenant that only has to stay (a new child's parent), which a concurrent delete then waits for.
 */
export async function lockTenant(db: Queryable, id: string, mode: 'update' | 'share' = 'update'): Promise<LockedTenant | undefined> {
  const rows = await db.query<
    Array<{ id: string; title: string; area_id: string | null; parent_id: string | null; tax_number: string | null; vies_number: string | null; group_alias: string | null }>
  >(
    `SELECT id, title, area_id, parent_id, tax_number, vies_number, group_alias FROM tenants WHERE id = $1 ${mode === 'update' ? 'FOR UPDATE' : 'FOR SHARE'}`,
    [id],
  );
  const row = rows[0];
  return (
    row && {
      id: row.id,
      title: row.title,
      areaId: row.area_id,
      parentId: row.parent_id,
      taxNumber: row.tax_number,
      viesNumber: row.vies_number,
      groupAlias: row.group_alias,
    }
  );
}

export interface NewTenant {
  title: string;
  areaId: string;
  parentId: string | null;
  taxNumber: string | null;
  viesNumber: string | null;
}

/** Inserts a tenant created in the console (Manual, not customised); answers its id. */
export async function insertTenant(db: Queryable, tenant: NewTenant, modifiedById: string): Promise<string> {
  const rows = await db.query<Array<{ id: string }>>(
    `INSERT INTO tenants (title, area_id, parent_id, tax_number, vies_number, creation_type, is_user_customized, modified_by_id)
     VALUES ($1, $2, $3, $4, $5, 'Manual', false, $6) RETURNING id`,
    [tenant.title, tenant.areaId, tenant.parentId, tenant.taxNumber, tenant.viesNumber, modifiedById],
  );
  return rows[0]!.id;
}

export interface TenantChange {
  title: string;
  areaId: string;
  taxNumber: string | null;
  viesNumber: string | null;
  groupAlias: string | null;
}

/** Changes the general properties; the tenant is then customised by a user (an import no longer overwrites it). */
export async function updateTenant(db: Queryable, id: string, change: TenantChange, modifiedById: string): Promise<void> {
  await db.query(
    `UPDATE tenants SET title = $2, area_id = $3, tax_number = $4, vies_number = $5, group_alias = $6,
            is_user_customized = true, modified_by_id = $7, modified_on = now()
      WHERE id = $1`,
    [id, change.title, change.areaId, change.taxNumber, change.viesNumber, change.groupAlias, modifiedById],
  );
}

export async function countChildren(db: Queryable, id: string): Promise<number> {
  const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM tenants WHERE parent_id = $1`, [id]);
  return Number(row!.count);
}

export async function countMemberships(db: Queryable, id: string): Promise<number> {
  const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM tenant_members WHERE tenant_id = $1`, [id]);
  return Number(row!.count);
}

/** Deletes the tenant; its memberships and their roles go with it (ON DELETE CASCADE). */
export async function deleteTenant(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM tenants WHERE id = $1`, [id]);
}

/**
 * One number for every move: taken with pg_advisory_xact_lock, it makes moves run one after the
 * other, so the cycle check of one always sees the tree the other left.
 */
const MOVE_LOCK = 7_312_604_118;

/** Waits until no other move runs; the lock is released when the transaction ends. */
export async function lockMoves(db: Queryable): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock($1::bigint)`, [MOVE_LOCK]);
}

/** Whether `candidateId` is `id` itself or lies below it. */
export async function isSelfOrDescendant(db: Queryable, id: string, candidateId: string): Promise<boolean> {
  if (id === candidateId) return true;
  return (await findAncestorIds(db, candidateId)).includes(id);
}

/** Moves the tenant (its subtree follows) under `parentId`, or to the top when null. */
export async function setParent(db: Queryable, id: string, parentId: string | null, modifiedById: string): Promise<void> {
  await db.query(`UPDATE tenants SET parent_id = $2, is_user_customized = true, modified_by_id = $3, modified_on = now() WHERE id = $1`, [
    id,
    parentId,
    modifiedById,
  ]);
}

/** The fields of a tenant the MFA switches read and answer. */
export interface TenantTwoModeAuth {
  id: string;
  title: string;
  requiredTwoModeAuthentification: boolean;
  phishingResistantOnly: boolean;
}

interface TwoModeAuthRow {
  id: string;
  title: string;
  required_two_mode_authentification: boolean;
  phishing_resistant_only: boolean;
}

const toTwoModeAuth = (row: TwoModeAuthRow): TenantTwoModeAuth => ({
  id: row.id,
  title: row.title,
  requiredTwoModeAuthentification: row.required_two_mode_authentification,
  phishingResistantOnly: row.phishing_resistant_only,
});

/** Reads the tenant and locks its row until the transaction ends, so two switches cannot interleave. */
export async function findTenantForUpdate(db: Queryable, id: string): Promise<TenantTwoModeAuth | undefined> {
  const rows = await db.query<TwoModeAuthRow[]>(
    `SELECT id, title, required_two_mode_authentification, phishing_resistant_only FROM tenants WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] && toTwoModeAuth(rows[0]);
}

/** Sets the tenant's MFA requirement and its phishing-resistant rule, and answers the tenant as it now stands. */
export async function updateTwoModeAuth(db: Queryable, id: string, flags: { enable: boolean; phishingResistantOnly: boolean }, modifiedById: string): Promise<TenantTwoModeAuth> {
  // TypeORM's raw queries return [rows, affected] for UPDATE … RETURNING.
  const [rows] = await db.query<[TwoModeAuthRow[], number]>(
    `UPDATE tenants SET required_two_mode_authentification = $2, phishing_resistant_only = $3, modified_by_id = $4, modified_on = now()
      WHERE id = $1
      RETURNING id, title, required_two_mode_authentification, phishing_resistant_only`,
    [id, flags.enable, flags.phishingResistantOnly, modifiedById],
  );
  return toTwoModeAuth(rows[0]!);
}
