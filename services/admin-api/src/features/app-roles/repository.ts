import type { appRoleBodySchema } from '@gatehouse/contracts';
import { likePattern, type ListQuery } from '@gatehouse/core';
import type { z } from 'zod';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** The role's general properties as the service writes them (the contract's body, parsed). */
export type RoleFields = z.output<typeof appRoleBodySchema>;

export interface ApplicationRecord {
  id: string;
  name: string;
  displayName: string;
}

/** The application's client id and display name; undefined when there is no such application. */
export async function findApplication(db: Queryable, appId: string): Promise<ApplicationRecord | undefined> {
  const rows = await db.query<Array<{ id: string; name: string; display_name: string }>>(`SELECT id, name, display_name FROM applications WHERE id = $1`, [appId]);
  const row = rows[0];
  return row && { id: row.id, name: row.name, displayName: row.display_name };
}

/** The SQL each sortable field of the role list sorts by. */
export const ROLE_SORT = { name: 'r.name', description: 'r.description' } as const;

export interface RoleRow {
  id: string;
  application_id: string;
  application_name: string;
  name: string;
  description: string | null;
  by_hierarchy: boolean;
  operation_request_visibility: boolean;
  service_manager_visibility: boolean;
  /** Users and groups holding the role in a tenant of their own (counted once each). */
  holders: string;
  scopes_count: string;
}

const ROLE_COLUMNS = `r.id, r.application_id, (SELECT app.display_name FROM applications app WHERE app.id = r.application_id) AS application_name, r.name, r.description, r.by_hierarchy, r.operation_request_visibility, r.service_manager_visibility,
  (SELECT count(DISTINCT coalesce(tm.user_id, tm.group_id)) FROM tenant_member_roles tmr JOIN tenant_members tm ON tm.id = tmr.tenant_member_id
    WHERE tmr.role_id = r.id) AS holders,
  (SELECT count(*) FROM role_scopes s WHERE s.role_id = r.id) AS scopes_count`;

const ROLE_WHERE = `r.application_id = $1 AND ($2::text IS NULL OR r.name ILIKE $2 OR r.description ILIKE $2)`;

/** A page of the application's roles whose name or description matches the search, and their total. */
export async function listRoles(db: Queryable, appId: string, query: ListQuery): Promise<{ rows: RoleRow[]; count: number }> {
  const filters = [appId, query.search ? likePattern(query.search) : null];
  const rows = await db.query<Array<RoleRow & { total: string }>>(
    `SELECT ${ROLE_COLUMNS}, count(*) OVER () AS total
       FROM roles r
      WHERE ${ROLE_WHERE}
      ORDER BY ${query.orderBy}, r.id
      LIMIT $3 OFFSET $4`,
    [...filters, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM roles r WHERE ${ROLE_WHERE}`, filters);
    return Number(row!.count);
  });
  return { rows, count };
}

/** One role of the application; undefined when the role does not exist or belongs to another application. */
export async function findRole(db: Queryable, appId: string, roleId: string): Promise<RoleRow | undefined> {
  const rows = await db.query<RoleRow[]>(`SELECT ${ROLE_COLUMNS} FROM roles r WHERE r.application_id = $1 AND r.id = $2`, [appId, roleId]);
  return rows[0];
}

/** As findRole, row-locked until the transaction of `em` ends (a change or a delete follows). */
export async function lockRole(em: Queryable, appId: string, roleId: string): Promise<RoleRow | undefined> {
  const locked = await em.query<Array<{ id: string }>>(`SELECT id FROM roles WHERE application_id = $1 AND id = $2 FOR UPDATE`, [appId, roleId]);
  return locked.length ? findRole(em, appId, roleId) : undefined;
}

// Names are compared without case: "reader" beside "Reader" would be two roles nobody can tell apart in a token.
const NAME_FREE = `NOT EXISTS (SELECT 1 FROM roles o WHERE o.application_id = $1::varchar AND lower(o.name) = lower($2::varchar) AND o.id IS DISTINCT FROM $7::uuid)`;

/** Inserts the role unless the application has one of that name (any case); answers its id, or undefined for a taken name. */
export async function insertRole(db: Queryable, appId: string, fields: RoleFields): Promise<string | undefined> {
  const rows = await db.query<Array<{ id: string }>>(
    `INSERT INTO roles (application_id, name, description, by_hierarchy, operation_request_visibility, service_manager_visibility)
     SELECT $1::varchar, $2::varchar, $3::varchar, $4::boolean, $5::boolean, $6::boolean WHERE ${NAME_FREE}
     RETURNING id`,
    [appId, fields.name, fields.description, fields.byHierarchy, fields.operationRequestVisibility, fields.serviceManagerVisibility, null],
  );
  return rows[0]?.id;
}

/** Changes the role unless another role of the application has the new name (any case); answers whether it did. */
export async function updateRole(db: Queryable, appId: string, roleId: string, fields: RoleFields): Promise<boolean> {
  // TypeORM's raw queries return [rows, affected] for UPDATE … RETURNING.
  const [rows] = await db.query<[Array<{ id: string }>, number]>(
    `UPDATE roles SET name = $2::varchar, description = $3::varchar, by_hierarchy = $4::boolean, operation_request_visibility = $5::boolean, service_manager_visibility = $6::boolean, modified_on = now()
      WHERE application_id = $1::varchar AND id = $7::uuid AND ${NAME_FREE}
      RETURNING id`,
    [appId, fields.name, fields.description, fields.byHierarchy, fields.operationRequestVisibility, fields.serviceManagerVisibility, roleId],
  );
  return rows.length > 0;
}

/** Deletes the role; its scopes and every membership's badge of it go with it (foreign keys on cascade). */
export async function deleteRole(db: Queryable, roleId: string): Promise<void> {
  await db.query(`DELETE FROM roles WHERE id = $1`, [roleId]);
}

export interface ScopeRow {
  id: string;
  role_id: string;
  scope: string;
}

const SCOPE_WHERE = `s.role_id = $1 AND ($2::text IS NULL OR s.scope ILIKE $2)`;

/** A page of the role's scopes matching the search, and their total. */
export async function listScopes(db: Queryable, roleId: string, query: ListQuery): Promise<{ rows: ScopeRow[]; count: number }> {
  const filters = [roleId, query.search ? likePattern(query.search) : null];
  const rows = await db.query<Array<ScopeRow & { total: string }>>(
    `SELECT s.id, s.role_id, s.scope, count(*) OVER () AS total
       FROM role_scopes s
      WHERE ${SCOPE_WHERE}
      ORDER BY ${query.orderBy}, s.id
      LIMIT $3 OFFSET $4`,
    [...filters, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM role_scopes s WHERE ${SCOPE_WHERE}`, filters);
    return Number(row!.count);
  });
  return { rows, count };
}

/** One scope of the role; undefined when it does not exist or belongs to another role. */
export async function findScope(db: Queryable, roleId: string, scopeId: string): Promise<ScopeRow | undefined> {
  const rows = await db.query<ScopeRow[]>(`SELECT id, role_id, scope FROM role_scopes WHERE role_id = $1 AND id = $2`, [roleId, scopeId]);
  return rows[0];
}

/** Adds the scope (a duplicate violates `role_scopes__role_id_scope`, answered as "already exists"). */
export async function insertScope(db: Queryable, roleId: string, scope: string): Promise<ScopeRow> {
  const rows = await db.query<ScopeRow[]>(`INSERT INTO role_scopes (role_id, scope) VALUES ($1, $2) RETURNING id, role_id, scope`, [roleId, scope]);
  return rows[0]!;
}

export async function updateScope(db: Queryable, scopeId: string, scope: string): Promise<ScopeRow> {
  const [rows] = await db.query<[ScopeRow[], number]>(`UPDATE role_scopes SET scope = $2 WHERE id = $1 RETURNING id, role_id, scope`, [scopeId, scope]);
  return rows[0]!;
}

export async function deleteScope(db: Queryable, scopeId: string): Promise<void> {
  await db.query(`DELETE FROM role_scopes WHERE id = $1`, [scopeId]);
}

export interface PermissionRow {
  id: string;
  name: string;
  scopes: string[];
}

/** Every role of the application with its scopes, by role name. */
export async function listPermissions(db: Queryable, appId: string): Promise<PermissionRow[]> {
  return db.query<PermissionRow[]>(
    `SELECT r.id, r.name, coalesce(array_agg(s.scope ORDER BY s.scope) FILTER (WHERE s.scope IS NOT NULL), '{}') AS scopes
       FROM roles r LEFT JOIN role_scopes s ON s.role_id = r.id
      WHERE r.application_id = $1
      GROUP BY r.id, r.name
      ORDER BY r.name, r.id`,
    [appId],
  );
}
