import type { ClientUserSortField } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, likePattern } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';
import { normalize } from '../directory/lookups.js';

/** One page of a list, as the clients endpoints read it. */
export interface Page {
  search: string | null;
  skip: number;
  top: number;
}

/**
 * The client tenants, by title: every tenant but the Global one, or (`ids`) only these. Searched
 * and paged in SQL.
 */
export async function listClientTenants(db: Queryable, ids: string[] | null, page: Page): Promise<{ items: Array<{ id: string; title: string }>; count: number }> {
  const values: unknown[] = [GLOBAL_TENANT_ID];
  const conditions = ['t.id <> $1'];
  if (ids) conditions.push(`t.id = ANY($${values.push(ids)}::uuid[])`);
  if (page.search) conditions.push(`t.title ILIKE $${values.push(likePattern(page.search))}`);
  const where = conditions.join(' AND ');
  const rows = await db.query<Array<{ id: string; title: string; total: string }>>(
    `SELECT t.id, t.title, count(*) OVER () AS total FROM tenants t
      WHERE ${where}
      ORDER BY t.title, t.id
      LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, page.top, page.skip],
  );
  const count = await listTotal(rows, page.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM tenants t WHERE ${where}`, values);
    return Number(row!.count);
  });
  return { items: rows.map(({ id, title }) => ({ id, title })), count };
}

/**
 * The users of a tenant as My Clients lists them ($1: the tenant): its own user members, the users
 * with a request waiting for approval in it, and the drafts created for it (not members until a
 * request for them is approved). Members through a group are the group's business, not listed.
 */
const TENANT_USERS = `
  tenant_users AS (
    SELECT tm.user_id AS id FROM tenant_members tm WHERE tm.tenant_id = $1 AND tm.user_id IS NOT NULL
    UNION
    SELECT o.user_id FROM operation_requests o WHERE o.tenant_id = $1 AND o.status = 'WaitingForApprover' AND o.user_id IS NOT NULL
    UNION
    SELECT u.id FROM users u WHERE u.created_for_tenant_id = $1 AND u.draft
  )`;

const FULL_NAME_SQL = `coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email)`;

/** The list's sortable fields → the SQL they sort by. */
const CLIENT_USER_SORT: Readonly<Record<ClientUserSortField, string>> = {
  fullName: `lower(${FULL_NAME_SQL})`,
  userName: 'u.normalized_user_name',
  email: 'u.normalized_email',
  jobTitle: 'lower(u.job_title)',
  modifiedOn: 'u.modified_on',
};

const CLIENT_USER_COLUMNS = `u.id, ${FULL_NAME_SQL} AS full_name, u.user_name, u.email, u.first_name, u.last_name, u.area_id, a.name AS area_name,
       u.language, u.phone_number, u.job_title, u.manager, u.teams, u.modified_on,
       (u.locked OR coalesce(u.lockout_end > now(), false)) AS locked, u.draft, u.validate_scopes, u.user_type, u.last_login_at IS NOT NULL AS has_signed_in,
       EXISTS (SELECT 1 FROM operation_requests o WHERE o.user_id = u.id AND o.tenant_id = $1 AND o.status = 'WaitingForApprover') AS waiting`;

export interface ClientUserRow {
  id: string;
  full_name: string;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  area_id: string;
  area_name: string;
  language: string;
  phone_number: string | null;
  job_title: string | null;
  manager: string | null;
  teams: unknown;
  modified_on: Date;
  locked: boolean;
  draft: boolean;
  validate_scopes: boolean;
  user_type: number;
  has_signed_in: boolean;
  waiting: boolean;
}

export interface ClientUserFilter extends Page {
  userType?: number | undefined;
  sort: { field: ClientUserSortField; direction: 'asc' | 'desc' };
}

/** One page of the tenant's users, filtered, sorted and paged in SQL. */
export async function listClientUsers(db: Queryable, tenantId: string, filter: ClientUserFilter): Promise<{ rows: ClientUserRow[]; count: number }> {
  const values: unknown[] = [tenantId];
  const conditions: string[] = [];
  if (filter.userType !== undefined) conditions.push(`u.user_type = $${values.push(filter.userType)}`);
  if (filter.search) {
    conditions.push(`(u.user_name || ' ' || u.email || ' ' || coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '') || ' ' || coalesce(u.job_title, '')) ILIKE $${values.push(likePattern(filter.search))}`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const orderBy = `${CLIENT_USER_SORT[filter.sort.field]} ${filter.sort.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
  const rows = await db.query<Array<ClientUserRow & { total: string }>>(
    `WITH ${TENANT_USERS}
     SELECT ${CLIENT_USER_COLUMNS}, count(*) OVER () AS total
       FROM tenant_users tu JOIN users u ON u.id = tu.id JOIN areas a ON a.id = u.area_id
       ${where}
      ORDER BY ${orderBy}, u.id
      LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, filter.top, filter.skip],
  );
  const count = await listTotal(rows, filter.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(
      `WITH ${TENANT_USERS} SELECT count(*) FROM tenant_users tu JOIN users u ON u.id = tu.id ${where}`,
      values,
    );
    return Number(row!.count);
  });
  return { rows, count };
}

/** One user of the tenant as the list shows it; undefined when the user is not one of the tenant's. */
export async function findClientUser(db: Queryable, tenantId: string, userId: string): Promise<ClientUserRow | undefined> {
  const rows = await db.query<ClientUserRow[]>(
    `WITH ${TENANT_USERS}
     SELECT ${CLIENT_USER_COLUMNS}
       FROM tenant_users tu JOIN users u ON u.id = tu.id JOIN areas a ON a.id = u.area_id
      WHERE u.id = $2`,
    [tenantId, userId],
  );
  return rows[0];
}

/** A user's editable state, row-locked until the transaction ends; undefined when the user is not one of the tenant's. */
export async function lockClientUser(db: Queryable, tenantId: string, userId: string): Promise<ClientUserRow | undefined> {
  await db.query(`SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, [userId]);
  return findClientUser(db, tenantId, userId);
}

export interface AreaRules {
  id: string;
  name: string;
  isDefault: boolean;
  isSystem: boolean;
}

export async function findAreaRules(db: Queryable, areaId: string): Promise<AreaRules | undefined> {
  const rows = await db.query<Array<{ id: string; name: string; is_default: boolean; is_system: boolean }>>(
    `SELECT id, name, is_default, is_system FROM areas WHERE id = $1`,
    [areaId],
  );
  const row = rows[0];
  return row && { id: row.id, name: row.name, isDefault: row.is_default, isSystem: row.is_system };
}

/** Whether another user than `exceptId` already has the user name (case-insensitive). */
export async function userNameTakenByOther(db: Queryable, userName: string, exceptId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(`SELECT 1 FROM users WHERE normalized_user_name = $1 AND id <> $2`, [normalize(userName), exceptId]);
  return rows.length > 0;
}

/** What My Clients sets on a user besides what every user has. */
export interface ClientProfile {
  userName: string;
  phoneNumber: string | null;
  jobTitle: string | null;
  manager: string | null;
  teams: string[];
  userType: number;
}

/** Sets the self-service fields (and the user name, which the console's edit leaves alone). */
export async function updateClientProfile(db: Queryable, userId: string, profile: ClientProfile): Promise<void> {
  await db.query(
    `UPDATE users SET user_name = $2, normalized_user_name = $3, phone_number = $4, job_title = $5, manager = $6, teams = $7::jsonb, user_type = $8,
                      modified_on = now()
      WHERE id = $1`,
    [userId, profile.userName, normalize(profile.userName), profile.phoneNumber, profile.jobTitle, profile.manager, JSON.stringify(profile.teams), profile.userType],
  );
}

/** Makes a just-created user a draft (pending approval) created for the tenant. */
export async function markCreatedForTenant(db: Queryable, userId: string, tenantId: string): Promise<void> {
  await db.query(`UPDATE users SET draft = true, created_for_tenant_id = $2 WHERE id = $1`, [userId, tenantId]);
}

/**
 * Completes the CreateUser row the user's creation just wrote, inside the same transaction (so
 * nobody ever reads it without): the tenant it was created for and the self-service fields.
 */
export async function completeCreationLog(db: Queryable, actorId: string, userId: string, tenant: { id: string; title: string }, metadata: Record<string, unknown>): Promise<void> {
  await db.query(
    `UPDATE system_logs SET tenant_id = $3, tenant_name = $4, metadata = metadata || $5::jsonb
      WHERE user_id = $1 AND operation = 'CreateUser' AND metadata->>'targetUserId' = $2::text`,
    [actorId, userId, tenant.id, tenant.title.slice(0, 200), JSON.stringify(metadata)],
  );
}
