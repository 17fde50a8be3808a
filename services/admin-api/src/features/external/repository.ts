import { GLOBAL_TENANT_ID } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { MAX_DEPTH } from '../directory/lookups.js';

// The external API's reads and writes. Every statement is bounded by the calling application:
// its roles, and the tenants where they are held (with those below them).

/** The memberships holding a role of the application: the tenants where it is granted, to a user or a group. */
const GRANTED = `
  SELECT DISTINCT tm.tenant_id
    FROM tenant_members tm
    JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
    JOIN roles r ON r.id = tmr.role_id
   WHERE r.application_id = $1`;

/** An application as the external API knows it. */
export interface ApplicationRow {
  id: string;
  name: string;
  display_name: string;
  status: string;
  enabled: boolean;
}

export async function findApplicationByName(db: Queryable, name: string): Promise<ApplicationRow | undefined> {
  const [row] = await db.query<ApplicationRow[]>(`SELECT id, name, display_name, status, enabled FROM applications WHERE name = $1`, [name]);
  return row;
}

/** A personal access token found by its hash, with its owner's state and its application. */
export interface PatRow {
  id: string;
  user_id: string;
  user_name: string;
  expires_at: Date | null;
  last_used_at: Date | null;
  locked: boolean;
  draft: boolean;
  application: ApplicationRow;
}

export async function findPersonalAccessToken(db: Queryable, hash: string): Promise<PatRow | undefined> {
  const [row] = await db.query<Array<Omit<PatRow, 'application'> & { application_id: string; name: string; display_name: string; status: string; enabled: boolean }>>(
    `SELECT p.id, p.user_id, u.user_name, p.expires_at, p.last_used_at, u.locked, u.draft,
            a.id AS application_id, a.name, a.display_name, a.status, a.enabled
       FROM personal_access_tokens p
       JOIN users u ON u.id = p.user_id
       JOIN applications a ON a.id = p.application_id
      WHERE p.token_hash = $1`,
    [hash],
  );
  if (!row) return undefined;
  const { application_id, name, display_name, status, enabled, ...pat } = row;
  return { ...pat, application: { id: application_id, name, display_name, status, enabled } };
}

export async function touchPersonalAccessToken(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE personal_access_tokens SET last_used_at = now() WHERE id = $1', [id]);
}

/** Whether the user is one of the application's owners. */
export async function ownsApplication(db: Queryable, userId: string, applicationId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>('SELECT 1 FROM application_owners WHERE application_id = $1 AND user_id = $2', [applicationId, userId]);
  return rows.length > 0;
}

/** One row of the External Api Access Log. */
export interface AccessLogEntry {
  ip: string | null;
  userId: string | null;
  userName: string | null;
  apiEntry: string;
  metadata: Record<string, unknown>;
}

export async function insertAccessLog(db: Queryable, entry: AccessLogEntry): Promise<void> {
  await db.query(`INSERT INTO external_api_access_logs (ip, user_id, user_name, api_entry, metadata) VALUES ($1, $2, $3, $4, $5)`, [
    entry.ip?.slice(0, 64) ?? null,
    entry.userId,
    entry.userName?.slice(0, 256) ?? null,
    entry.apiEntry,
    entry.metadata,
  ]);
}

/** A role of the application, with what the grant rules need to know of it. */
export interface ApplicationRole {
  id: string;
  name: string;
  byHierarchy: boolean;
  operationRequestVisibility: boolean;
}

/** The application's roles named by id or by name; unknown references are simply not among them. */
export async function findApplicationRoles(db: Queryable, applicationId: string, references: string[]): Promise<Array<ApplicationRole & { reference: string }>> {
  const rows = await db.query<Array<{ id: string; name: string; by_hierarchy: boolean; operation_request_visibility: boolean; reference: string }>>(
    `SELECT r.id, r.name, r.by_hierarchy, r.operation_request_visibility, ref AS reference
       FROM unnest($2::text[]) AS ref
       JOIN roles r ON r.application_id = $1 AND (r.name = ref OR r.id::text = lower(ref))
      ORDER BY r.name, r.id`,
    [applicationId, references],
  );
  return rows.map((row) => ({ id: row.id, name: row.name, byHierarchy: row.by_hierarchy, operationRequestVisibility: row.operation_request_visibility, reference: row.reference }));
}

/** Whether the user holds a role of the application anywhere, granted to them or to one of their groups. */
export async function holdsApplicationRole(db: Queryable, applicationId: string, userId: string): Promise<boolean> {
  const rows = await db.query<unknown[]>(
    `SELECT 1
       FROM tenant_members tm
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
       JOIN roles r ON r.id = tmr.role_id AND r.application_id = $1
      WHERE tm.user_id = $2 OR tm.group_id IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = $2)
      LIMIT 1`,
    [applicationId, userId],
  );
  return rows.length > 0;
}

/** A tenant the application sees. */
export interface VisibleTenant {
  id: string;
  title: string;
  area_id: string | null;
}

/**
 * The tenant if the application sees it: one of its roles is granted there, in a tenant above it
 * or in the Global tenant. The Global tenant itself is seen only where a role is granted in it.
 */
export async function findVisibleTenant(db: Queryable, applicationId: string, tenantId: string): Promise<VisibleTenant | undefined> {
  const [row] = await db.query<VisibleTenant[]>(
    `WITH RECURSIVE up(id, depth) AS (
       SELECT id, 0 FROM tenants WHERE id = $2
       UNION ALL
       SELECT t.parent_id, up.depth + 1 FROM up JOIN tenants t ON t.id = up.id WHERE t.parent_id IS NOT NULL AND up.depth < $3
     ),
     granted AS (${GRANTED})
     SELECT t.id, t.title, t.area_id FROM tenants t
      WHERE t.id = $2
        AND EXISTS (SELECT 1 FROM granted g WHERE g.tenant_id IN (SELECT id FROM up) OR (g.tenant_id = '${GLOBAL_TENANT_ID}' AND t.id <> '${GLOBAL_TENANT_ID}'))`,
    [applicationId, tenantId, MAX_DEPTH],
  );
  return row;
}

/** A visible tenant as GetEntities lists it. */
export interface EntityRow {
  id: string;
  title: string;
  parent_id: string | null;
  area_id: string | null;
  area_name: string | null;
}

/**
 * The tenants the application sees, as a CTE named `visible(id)`: those where one of its roles is
 * granted and every tenant below them; every tenant when one is granted in the Global tenant, which
 * is never listed itself. UNION drops repeats, so a damaged (cyclic) tree cannot loop.
 */
const VISIBLE = `
  granted AS (${GRANTED}),
  visible(id) AS (
    SELECT t.id FROM tenants t
     WHERE t.id <> '${GLOBAL_TENANT_ID}'
       AND (t.id IN (SELECT tenant_id FROM granted) OR EXISTS (SELECT 1 FROM granted WHERE tenant_id = '${GLOBAL_TENANT_ID}'))
    UNION
    SELECT c.id FROM visible v JOIN tenants c ON c.parent_id = v.id
  )`;

const ENTITY_COLUMNS = 't.id, t.title, t.parent_id, t.area_id, a.name AS area_name';

/** One page of the visible tenants by title (flat view), and how many match. */
export async function listVisibleTenants(
  db: Queryable,
  applicationId: string,
  page: { search: string | null; skip: number; top: number; direction: 'ASC' | 'DESC' },
): Promise<{ rows: EntityRow[]; count: number }> {
  const rows = await db.query<Array<EntityRow & { total: string }>>(
    `WITH RECURSIVE ${VISIBLE}
     SELECT ${ENTITY_COLUMNS}, count(*) OVER () AS total
       FROM visible v JOIN tenants t ON t.id = v.id LEFT JOIN areas a ON a.id = t.area_id
      WHERE $2::text IS NULL OR t.title ILIKE $2
      ORDER BY t.title ${page.direction}, t.id ${page.direction}
      OFFSET $3 LIMIT $4`,
    [applicationId, page.search, page.skip, page.top],
  );
  return { rows, count: rows.length ? Number(rows[0]!.total) : await countVisible(db, applicationId, page.search, false) };
}

/** How many visible tenants match (a page past the end has no row to carry the total). */
async function countVisible(db: Queryable, applicationId: string, search: string | null, rootsOnly: boolean): Promise<number> {
  const [row] = await db.query<Array<{ count: string }>>(
    `WITH RECURSIVE ${VISIBLE}
     SELECT count(*) AS count FROM visible v JOIN tenants t ON t.id = v.id
      WHERE ($2::text IS NULL OR t.title ILIKE $2)
        AND (NOT $3::boolean OR t.parent_id IS NULL OR t.parent_id NOT IN (SELECT id FROM visible))`,
    [applicationId, search, rootsOnly],
  );
  return Number(row!.count);
}

/** One page of the topmost visible tenants (those whose parent the application does not see), by title. */
export async function listVisibleRoots(
  db: Queryable,
  applicationId: string,
  page: { skip: number; top: number; direction: 'ASC' | 'DESC' },
): Promise<{ rows: EntityRow[]; count: number }> {
  const rows = await db.query<Array<EntityRow & { total: string }>>(
    `WITH RECURSIVE ${VISIBLE}
     SELECT ${ENTITY_COLUMNS}, count(*) OVER () AS total
       FROM visible v JOIN tenants t ON t.id = v.id LEFT JOIN areas a ON a.id = t.area_id
      WHERE t.parent_id IS NULL OR t.parent_id NOT IN (SELECT id FROM visible)
      ORDER BY t.title ${page.direction}, t.id ${page.direction}
      OFFSET $2 LIMIT $3`,
    [applicationId, page.skip, page.top],
  );
  return { rows, count: rows.length ? Number(rows[0]!.total) : await countVisible(db, applicationId, null, true) };
}

/** Every tenant below the given ones (all visible, since what is below a visible tenant is), by title. */
export async function findDescendants(db: Queryable, rootIds: string[]): Promise<EntityRow[]> {
  if (rootIds.length === 0) return [];
  return db.query<EntityRow[]>(
    `WITH RECURSIVE down(id) AS (
       SELECT c.id FROM tenants c WHERE c.parent_id = ANY($1::uuid[])
       UNION
       SELECT c.id FROM down d JOIN tenants c ON c.parent_id = d.id
     )
     SELECT ${ENTITY_COLUMNS} FROM down d JOIN tenants t ON t.id = d.id LEFT JOIN areas a ON a.id = t.area_id
      WHERE t.id <> ALL($1::uuid[])
      ORDER BY t.title, t.id`,
    [rootIds],
  );
}

/** A holder of a role, with the tenants where it is granted to them or to one of their groups. */
export interface RoleHolderRow {
  id: string;
  user_name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  locked: boolean;
  draft: boolean;
  tenants: Array<{ tenantId: string; tenantName: string }>;
  total: string;
}

export const HOLDER_SORT = { userName: 'user_name', email: 'email', firstName: 'first_name', lastName: 'last_name' } as const;

/**
 * The users holding the role: granted to them or to one of their groups. With a tenant, only grants
 * that apply there: in the tenant, in a tenant above it through an inheritable membership, or in
 * the Global tenant. Paged in SQL; `orderBy` is a column of HOLDER_SORT with its direction.
 */
export async function listRoleHolders(
  db: Queryable,
  roleId: string,
  filter: { tenantId: string | null; search: string | null; skip: number; top: number; orderBy: string },
): Promise<{ rows: RoleHolderRow[]; count: number }> {
  const rows = await db.query<RoleHolderRow[]>(
    `WITH RECURSIVE up(id, depth) AS (
       SELECT parent_id, 1 FROM tenants WHERE id = $2 AND parent_id IS NOT NULL
       UNION ALL
       SELECT t.parent_id, up.depth + 1 FROM up JOIN tenants t ON t.id = up.id WHERE t.parent_id IS NOT NULL AND up.depth < $6
     ),
     grants AS (
       SELECT coalesce(tm.user_id, gm.user_id) AS user_id, tm.tenant_id, tm.is_inheritable
         FROM tenant_member_roles tmr
         JOIN tenant_members tm ON tm.id = tmr.tenant_member_id
         LEFT JOIN group_members gm ON gm.group_id = tm.group_id
        WHERE tmr.role_id = $1 AND (tm.user_id IS NOT NULL OR gm.user_id IS NOT NULL)
     ),
     applying AS (
       SELECT g.user_id, g.tenant_id FROM grants g
        WHERE $2::uuid IS NULL OR g.tenant_id = $2 OR g.tenant_id = '${GLOBAL_TENANT_ID}' OR (g.is_inheritable AND g.tenant_id IN (SELECT id FROM up))
     ),
     holders AS (
       SELECT a.user_id, json_agg(DISTINCT jsonb_build_object('tenantId', t.id, 'tenantName', t.title)) AS tenants
         FROM applying a JOIN tenants t ON t.id = a.tenant_id
        GROUP BY a.user_id
     ),
     filtered AS (
       SELECT u.id, u.user_name, u.email, u.first_name, u.last_name, u.locked, u.draft, h.tenants
         FROM holders h JOIN users u ON u.id = h.user_id
        WHERE $3::text IS NULL OR u.user_name ILIKE $3 OR u.email ILIKE $3 OR concat_ws(' ', u.first_name, u.last_name) ILIKE $3
     )
     -- The count comes with the page, and alone when the page is past the end.
     SELECT c.total, p.*
       FROM (SELECT count(*) AS total FROM filtered) c
       LEFT JOIN LATERAL (SELECT * FROM filtered ORDER BY ${filter.orderBy}, id OFFSET $4 LIMIT $5) p ON true
      ORDER BY ${filter.orderBy}, p.id`,
    [roleId, filter.tenantId, filter.search, filter.skip, filter.top, MAX_DEPTH],
  );
  return { rows: rows.filter((row) => row.id !== null), count: Number(rows[0]?.total ?? 0) };
}

/** The ids of the application's roles (those listed, or all) in the user's own membership of the tenant. */
export async function findOwnApplicationRoleIds(db: Queryable, tenantId: string, userId: string, applicationId: string, roleIds: string[] | null): Promise<string[]> {
  const rows = await db.query<Array<{ role_id: string }>>(
    `SELECT tmr.role_id FROM tenant_members tm
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
       JOIN roles r ON r.id = tmr.role_id
      WHERE tm.tenant_id = $1 AND tm.user_id = $2 AND r.application_id = $3 AND ($4::uuid[] IS NULL OR r.id = ANY($4::uuid[]))`,
    [tenantId, userId, applicationId, roleIds],
  );
  return rows.map((row) => row.role_id);
}

/** The tenants where the user holds roles of the application in their own name, with their titles and areas. */
export async function findOwnApplicationTenants(db: Queryable, userId: string, applicationId: string): Promise<Array<{ id: string; title: string; areaId: string | null }>> {
  return db.query(
    `SELECT DISTINCT t.id, t.title, t.area_id AS "areaId" FROM tenant_members tm
       JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
       JOIN roles r ON r.id = tmr.role_id
       JOIN tenants t ON t.id = tm.tenant_id
      WHERE tm.user_id = $1 AND r.application_id = $2`,
    [userId, applicationId],
  );
}

/** Ends every provider session, grant and token of the user (a locked account signs in nowhere). */
export async function deleteProviderData(db: Queryable, userId: string): Promise<void> {
  await db.query(`DELETE FROM oidc_model_instances WHERE payload->>'accountId' = $1`, [userId]);
}

/** Ends the user's grants and tokens of one application at the provider (their sign-in to the others stays). */
export async function deleteApplicationGrants(db: Queryable, userId: string, clientId: string): Promise<void> {
  await db.query(`DELETE FROM oidc_model_instances WHERE payload->>'accountId' = $1 AND payload->>'clientId' = $2`, [userId, clientId]);
}

/** A user an application invited into a tenant: a draft created for the tenant, and by the application. */
export async function markInviteeCreated(db: Queryable, userId: string, tenantId: string, applicationId: string): Promise<void> {
  await db.query(`UPDATE users SET draft = true, created_for_tenant_id = $2, created_by_application_id = $3 WHERE id = $1`, [userId, tenantId, applicationId]);
}

/** The user whose user name, else whose only e-mail address, is this one; `ambiguous` when several share the address. */
export async function findInvitee(db: Queryable, email: string): Promise<{ id: string } | 'ambiguous' | undefined> {
  const normalized = email.trim().toLowerCase();
  const [byName] = await db.query<Array<{ id: string }>>('SELECT id FROM users WHERE normalized_user_name = $1', [normalized]);
  if (byName) return byName;
  const byEmail = await db.query<Array<{ id: string }>>('SELECT id FROM users WHERE normalized_email = $1 LIMIT 2', [normalized]);
  if (byEmail.length > 1) return 'ambiguous';
  return byEmail[0];
}

/** The permanent administrative lock (only an administrator lifts it); `modifiedById` is the token's owner, if any. */
export async function lockAccount(db: Queryable, id: string, modifiedById: string | null): Promise<void> {
  await db.query(`UPDATE users SET locked = true, modified_by_id = $2, modified_on = now() WHERE id = $1`, [id, modifiedById]);
}

/** An idempotency key as it stands. */
export interface IdempotencyRow {
  api_entry: string;
  request_hash: string;
  state: 'Running' | 'Done';
  response_status: number | null;
  response_body: unknown;
}

/**
 * Claims a key for a call: a new row, Running until `leaseSeconds` from now, or an expired row taken
 * over (an old answer, or a call cut short). Answers whether this call holds the key; the unique
 * key makes two racing claims one winner. The caller's other expired keys go at the same time.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  claim: { caller: string; key: string; apiEntry: string; requestHash: string; leaseSeconds: number },
): Promise<boolean> {
  await db.query('DELETE FROM external_api_idempotency_keys WHERE caller = $1 AND expires_at <= now() AND idempotency_key <> $2', [claim.caller, claim.key]);
  const rows = await db.query<unknown[]>(
    `INSERT INTO external_api_idempotency_keys AS k (caller, idempotency_key, api_entry, request_hash, state, expires_at)
     VALUES ($1, $2, $3, $4, 'Running', now() + make_interval(secs => $5))
     ON CONFLICT (caller, idempotency_key) DO UPDATE
       SET api_entry = EXCLUDED.api_entry, request_hash = EXCLUDED.request_hash, state = 'Running',
           response_status = NULL, response_body = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
       WHERE k.expires_at <= now()
     RETURNING 1`,
    [claim.caller, claim.key, claim.apiEntry, claim.requestHash, claim.leaseSeconds],
  );
  return rows.length > 0;
}

export async function findIdempotencyKey(db: Queryable, caller: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db.query<IdempotencyRow[]>(
    `SELECT api_entry, request_hash, state, response_status, response_body FROM external_api_idempotency_keys
      WHERE caller = $1 AND idempotency_key = $2 AND expires_at > now()`,
    [caller, key],
  );
  return row;
}

/** Keeps the answer of the call holding the key, for `ttlSeconds`. */
export async function completeIdempotencyKey(db: Queryable, caller: string, key: string, answer: { status: number; body: unknown; ttlSeconds: number }): Promise<void> {
  await db.query(
    `UPDATE external_api_idempotency_keys
        SET state = 'Done', response_status = $3, response_body = $4, expires_at = now() + make_interval(secs => $5)
      WHERE caller = $1 AND idempotency_key = $2 AND state = 'Running'`,
    [caller, key, answer.status, JSON.stringify(answer.body), answer.ttlSeconds],
  );
}

/** Frees the key of a call that failed as a whole: a retry runs again. */
export async function releaseIdempotencyKey(db: Queryable, caller: string, key: string): Promise<void> {
  await db.query(`DELETE FROM external_api_idempotency_keys WHERE caller = $1 AND idempotency_key = $2 AND state = 'Running'`, [caller, key]);
}
