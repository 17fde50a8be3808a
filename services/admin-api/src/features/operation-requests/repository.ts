import { APPROVER_CATEGORIES, type OperationRequestRole, type WebhookEventType } from '@gatehouse/contracts';
import { GLOBAL_TENANT_ID, IDENTITY_APPLICATION_ID, likePattern, recordWebhookEvent, type IdentityType, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** The SQL each sortable field of the list sorts by. */
export const OPERATION_REQUEST_SORT = {
  modificationDate: 'r.modified_on',
  displayName: 'display_name',
  email: 'u.email',
  tenantName: 't.title',
  status: 'r.status',
  createdByDisplayName: 'created_by_display_name',
} as const;

/** What a request asks for: the complete set of operation-request roles and the membership's inheritance. */
export interface RequestPayload {
  roles: string[];
  isInheritable: boolean;
}

export interface RequestRow {
  id: string;
  type: 'Permission' | 'BulkInsert' | 'PolarisPermissionCreate' | 'ApproveOperationRequest';
  status: 'WaitingForApprover' | 'Applied' | 'Rejected' | 'Cancelled' | 'RollBack';
  tenant_id: string;
  tenant_name: string;
  identity_type: IdentityType;
  identity_id: string;
  display_name: string;
  email: string | null;
  language: string | null;
  modified_on: Date;
  created_by_id: string | null;
  created_by_display_name: string | null;
  payload: RequestPayload;
  /** Counts the changes of the payload: an approval names the version its approver saw. */
  version: number;
  reason: string | null;
}

/** A user's name as the portal shows it: first and last name, else the e-mail, else User_{id}. */
const userDisplay = (u: string) => `COALESCE(NULLIF(trim(concat_ws(' ', ${u}.first_name, ${u}.last_name)), ''), ${u}.email, 'User_' || ${u}.id)`;

const COLUMNS = `r.id, r.type, r.status, r.tenant_id, t.title AS tenant_name, r.identity_type,
  COALESCE(r.user_id, r.group_id) AS identity_id,
  CASE WHEN r.user_id IS NOT NULL THEN ${userDisplay('u')} ELSE g.name END AS display_name,
  u.email, u.language, r.modified_on, r.created_by_id,
  CASE WHEN c.id IS NULL THEN NULL ELSE ${userDisplay('c')} END AS created_by_display_name,
  r.payload, r.version, r.reason`;
const FROM = `operation_requests r
  JOIN tenants t ON t.id = r.tenant_id
  LEFT JOIN users u ON u.id = r.user_id
  LEFT JOIN groups g ON g.id = r.group_id
  LEFT JOIN users c ON c.id = r.created_by_id`;

export interface RequestFilter {
  /** The tenants the caller may see; null: every tenant. */
  tenantIds: string[] | null;
  status: string | null;
  /** Only the requests this user created. */
  createdById: string | null;
  /** Only requests for external users (user_type 2). */
  external: boolean;
}

const WHERE = `($1::uuid[] IS NULL OR r.tenant_id = ANY($1::uuid[]))
  AND ($2::varchar IS NULL OR r.status = $2)
  AND ($3::uuid IS NULL OR r.created_by_id = $3)
  AND (NOT $4::boolean OR u.user_type = 2)
  AND ($5::text IS NULL OR u.email ILIKE $5 OR u.user_name ILIKE $5 OR concat_ws(' ', u.first_name, u.last_name) ILIKE $5
       OR g.name ILIKE $5 OR t.title ILIKE $5 OR concat_ws(' ', c.first_name, c.last_name) ILIKE $5 OR c.email ILIKE $5)`;

/** One page of requests, paged and sorted by the database, and their total. */
export async function listRequests(db: Queryable, filter: RequestFilter, query: ListQuery): Promise<{ rows: RequestRow[]; count: number }> {
  const params = [filter.tenantIds, filter.status, filter.createdById, filter.external, query.search ? likePattern(query.search) : null];
  const rows = await db.query<Array<RequestRow & { total: string }>>(
    `SELECT ${COLUMNS}, count(*) OVER () AS total FROM ${FROM} WHERE ${WHERE} ORDER BY ${query.orderBy}, r.id LIMIT $6 OFFSET $7`,
    [...params, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM ${FROM} WHERE ${WHERE}`, params);
    return Number(row!.count);
  });
  return { rows, count };
}

/** One request; with `lock`, row-locked until the transaction ends. */
export async function findRequest(db: Queryable, id: string, lock = false): Promise<RequestRow | undefined> {
  const [row] = await db.query<RequestRow[]>(`SELECT ${COLUMNS} FROM ${FROM} WHERE r.id = $1${lock ? ' FOR UPDATE OF r' : ''}`, [id]);
  return row;
}

/** The request waiting for this identity in this tenant, if any. */
export async function findWaitingRequestId(db: Queryable, tenantId: string, identity: { type: IdentityType; id: string }): Promise<string | undefined> {
  const column = identity.type === 'User' ? 'user_id' : 'group_id';
  const [row] = await db.query<Array<{ id: string }>>(
    `SELECT id FROM operation_requests WHERE tenant_id = $1 AND ${column} = $2 AND status = 'WaitingForApprover'`,
    [tenantId, identity.id],
  );
  return row?.id;
}

/** Stores a new waiting request (a Permission one unless told); the database refuses a second waiting one for the identity and tenant. */
export async function insertRequest(
  db: Queryable,
  fields: { tenantId: string; identity: { type: IdentityType; id: string }; payload: RequestPayload; createdById: string | null; type?: RequestRow['type'] },
): Promise<string> {
  const [row] = await db.query<Array<{ id: string }>>(
    `INSERT INTO operation_requests (type, status, tenant_id, identity_type, user_id, group_id, payload, created_by_id)
     VALUES ($7, 'WaitingForApprover', $1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      fields.tenantId,
      fields.identity.type,
      fields.identity.type === 'User' ? fields.identity.id : null,
      fields.identity.type === 'Group' ? fields.identity.id : null,
      fields.payload,
      fields.createdById,
      fields.type ?? 'Permission',
    ],
  );
  return row!.id;
}

/** Changes a waiting request's payload; answers whether it was still waiting. */
export async function updateWaitingPayload(db: Queryable, id: string, payload: RequestPayload): Promise<boolean> {
  const rows = await db.query<Array<{ id: string }>>(
    `WITH changed AS (
       UPDATE operation_requests SET payload = $2, version = version + 1, modified_on = now() WHERE id = $1 AND status = 'WaitingForApprover' RETURNING id
     ) SELECT id FROM changed`,
    [id, payload],
  );
  return rows.length > 0;
}

// UPDATE and DELETE … RETURNING are wrapped in a CTE: the driver answers a bare one as [rows, count].

/**
 * The compare-and-set of every decision: moves a waiting request to `status`, answering false when
 * it no longer waits (someone decided first) or, given `version`, when its payload changed since
 * that version. Of two callers racing, exactly one gets true.
 */
export async function decideWaiting(db: Queryable, id: string, status: RequestRow['status'], reason: string | null, version: number | null = null): Promise<boolean> {
  const rows = await db.query<Array<{ id: string }>>(
    `WITH decided AS (
       UPDATE operation_requests SET status = $2, reason = $3, modified_on = now()
        WHERE id = $1 AND status = 'WaitingForApprover' AND ($4::int IS NULL OR version = $4::int) RETURNING id
     ) SELECT id FROM decided`,
    [id, status, reason, version],
  );
  return rows.length > 0;
}

/** Appends a step to a request's history. */
export async function insertHistory(
  db: Queryable,
  entry: { requestId: string; status: RequestRow['status']; requestType: string; actorId: string | null; actorEmail: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO operation_request_history (operation_request_id, status, request_type, actor_id, actor_email, date) VALUES ($1, $2, $3, $4, $5, clock_timestamp())`,
    [entry.requestId, entry.status, entry.requestType, entry.actorId, entry.actorEmail],
  );
  // The webhooks hear a request made, approved (applied) or rejected, in the same transaction.
  const type = REQUEST_EVENTS[entry.status];
  if (type) {
    await recordWebhookEvent(db, {
      type,
      data: { requestId: entry.requestId, status: entry.status, requestType: entry.requestType, actor: { userId: entry.actorId, email: entry.actorEmail } },
      applicationIds: await requestApplicationIds(db, entry.requestId),
    });
  }
}

/** The history's statuses the webhooks tell. */
const REQUEST_EVENTS: Partial<Record<RequestRow['status'], WebhookEventType>> = {
  WaitingForApprover: 'operation_request.created',
  Applied: 'operation_request.approved',
  Rejected: 'operation_request.rejected',
};

/** The applications whose roles a request asks for (their endpoints hear of it). */
async function requestApplicationIds(db: Queryable, requestId: string): Promise<string[]> {
  const rows: Array<{ application_id: string }> = await db.query(
    `SELECT DISTINCT r.application_id
       FROM operation_requests o CROSS JOIN LATERAL jsonb_array_elements_text(o.payload->'roles') AS role(id)
       JOIN roles r ON r.id::text = role.id
      WHERE o.id = $1`,
    [requestId],
  );
  return rows.map((row) => row.application_id);
}

export interface HistoryRow {
  id: string;
  email: string | null;
  date: Date;
  request_type: string;
  status: RequestRow['status'];
}

export async function listHistory(db: Queryable, requestId: string): Promise<HistoryRow[]> {
  return db.query<HistoryRow[]>(
    `SELECT id, actor_email AS email, date, request_type, status FROM operation_request_history WHERE operation_request_id = $1 ORDER BY date, id`,
    [requestId],
  );
}

export interface RequestableRole extends OperationRequestRole {
  operationRequestVisibility: boolean;
  byHierarchy: boolean;
}

/** The roles with these ids and their applications' names (missing ids are simply absent); `lock` keeps them from being deleted meanwhile. */
export async function findRequestRoles(db: Queryable, ids: string[], lock = false): Promise<RequestableRole[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<Array<{ id: string; name: string; application_id: string; application_name: string; visible: boolean; by_hierarchy: boolean }>>(
    `SELECT r.id, r.name, r.application_id, a.display_name AS application_name, r.operation_request_visibility AS visible, r.by_hierarchy
       FROM roles r JOIN applications a ON a.id = r.application_id
      WHERE r.id = ANY($1::uuid[])
      ORDER BY a.display_name, r.name, r.id${lock ? ' FOR SHARE OF r' : ''}`,
    [ids],
  );
  return rows.map((row) => ({
    roleId: row.id,
    roleName: row.name,
    applicationId: row.application_id,
    applicationName: row.application_name,
    operationRequestVisibility: row.visible,
    byHierarchy: row.by_hierarchy,
  }));
}

/** Every operation-request role of every application, by application then role name. */
export async function findVisibleRoles(db: Queryable): Promise<RequestableRole[]> {
  const rows = await db.query<Array<{ id: string; name: string; application_id: string; application_name: string; by_hierarchy: boolean }>>(
    `SELECT r.id, r.name, r.application_id, a.display_name AS application_name, r.by_hierarchy
       FROM roles r JOIN applications a ON a.id = r.application_id
      WHERE r.operation_request_visibility AND NOT (r.application_id = $1 AND r.name IN ('God', 'Administrator'))
      ORDER BY a.display_name, a.id, r.name, r.id`,
    [IDENTITY_APPLICATION_ID],
  );
  return rows.map((row) => ({
    roleId: row.id,
    roleName: row.name,
    applicationId: row.application_id,
    applicationName: row.application_name,
    operationRequestVisibility: true,
    byHierarchy: row.by_hierarchy,
  }));
}

/** The identity as a request names it: its display name, e-mail and language (users), and whether a group is the Users group. */
export interface TargetIdentity {
  id: string;
  displayName: string;
  email: string | null;
  language: string;
  draft: boolean;
}

export async function findTargetUser(db: Queryable, id: string, lock = false): Promise<TargetIdentity | undefined> {
  const [row] = await db.query<Array<{ id: string; display_name: string; email: string; language: string; draft: boolean }>>(
    `SELECT u.id, ${userDisplay('u')} AS display_name, u.email, u.language, u.draft FROM users u WHERE u.id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row && { id: row.id, displayName: row.display_name, email: row.email, language: row.language, draft: row.draft };
}

/** A draft user (created by a consultant, pending approval) stops being one. */
export async function clearDraft(db: Queryable, userId: string): Promise<boolean> {
  const rows = await db.query<Array<{ id: string }>>(`WITH cleared AS (UPDATE users SET draft = false, modified_on = now() WHERE id = $1 AND draft RETURNING id) SELECT id FROM cleared`, [userId]);
  return rows.length > 0;
}

/** The group a request is about, as the request checks it; undefined when it does not exist. */
export async function findRequestGroup(db: Queryable, groupId: string): Promise<{ id: string; name: string; isUsersGroup: boolean } | undefined> {
  const rows = await db.query<Array<{ id: string; name: string; is_users_group: boolean }>>(
    `SELECT g.id, g.name, lower(g.name) = 'users' AND EXISTS (SELECT 1 FROM tenant_members tm WHERE tm.group_id = g.id AND tm.tenant_id = $2) AS is_users_group
       FROM groups g WHERE g.id = $1`,
    [groupId, GLOBAL_TENANT_ID],
  );
  const row = rows[0];
  return row && { id: row.id, name: row.name, isUsersGroup: row.is_users_group };
}

/**
 * The roles (of any application) the identity holds in the tenant: its own membership's (Own),
 * and those reaching it from an ancestor's inheritable membership or the Global tenant (ByHierarchy).
 */
export async function findHeldRoles(
  db: Queryable,
  tenantId: string,
  identity: { type: IdentityType; id: string },
): Promise<{ own: Set<string>; byHierarchy: Set<string>; isInheritable: boolean | null }> {
  const column = identity.type === 'User' ? 'user_id' : 'group_id';
  const rows = await db.query<Array<{ role_id: string; own: boolean; is_inheritable: boolean }>>(
    `WITH RECURSIVE ancestors(id) AS (
       SELECT parent_id FROM tenants WHERE id = $1 AND parent_id IS NOT NULL
       UNION SELECT t.parent_id FROM ancestors x JOIN tenants t ON t.id = x.id WHERE t.parent_id IS NOT NULL
     )
     SELECT tmr.role_id, tm.tenant_id = $1 AS own, tm.is_inheritable
       FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
      WHERE tm.${column} = $2
        AND (tm.tenant_id = $1 OR tm.tenant_id = '${GLOBAL_TENANT_ID}' OR (tm.is_inheritable AND tm.tenant_id IN (SELECT id FROM ancestors)))`,
    [tenantId, identity.id],
  );
  const [membership] = await db.query<Array<{ is_inheritable: boolean }>>(`SELECT is_inheritable FROM tenant_members WHERE tenant_id = $1 AND ${column} = $2`, [
    tenantId,
    identity.id,
  ]);
  return {
    own: new Set(rows.filter((row) => row.own).map((row) => row.role_id)),
    byHierarchy: new Set(rows.filter((row) => !row.own).map((row) => row.role_id)),
    isInheritable: membership?.is_inheritable ?? null,
  };
}

export interface ApproverRow {
  id: string;
  display_name: string;
  email: string;
  language: string;
}

/**
 * The users who may approve a tenant's requests besides administrators: those holding
 * IdentityConsultant there (own, through a group, inherited from an ancestor or in the Global
 * tenant) whose internal category is an approver's, and whose account is usable.
 */
export async function findTenantApprovers(db: Queryable, tenantId: string): Promise<ApproverRow[]> {
  return db.query<ApproverRow[]>(
    `WITH RECURSIVE ancestors(id) AS (
       SELECT parent_id FROM tenants WHERE id = $1 AND parent_id IS NOT NULL
       UNION SELECT t.parent_id FROM ancestors x JOIN tenants t ON t.id = x.id WHERE t.parent_id IS NOT NULL
     ),
     grants AS (
       SELECT tm.user_id, tm.group_id
         FROM tenant_members tm
         JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id
         JOIN roles r ON r.id = tmr.role_id
        WHERE r.application_id = $2 AND r.name = 'IdentityConsultant'
          AND (tm.tenant_id = $1 OR tm.tenant_id = '${GLOBAL_TENANT_ID}' OR (tm.is_inheritable AND tm.tenant_id IN (SELECT id FROM ancestors)))
     ),
     holders AS (
       SELECT user_id FROM grants WHERE user_id IS NOT NULL
       UNION SELECT gm.user_id FROM grants g JOIN group_members gm ON gm.group_id = g.group_id
     )
     SELECT u.id, ${userDisplay('u')} AS display_name, u.email, u.language
       FROM users u
      WHERE u.id IN (SELECT user_id FROM holders) AND lower(trim(u.internal_category)) = ANY($3::text[]) AND NOT u.locked AND NOT u.draft
      ORDER BY display_name, u.id`,
    [tenantId, IDENTITY_APPLICATION_ID, [...APPROVER_CATEGORIES]],
  );
}

/** The administrators (Administrator or God, in any tenant), told of requests in a tenant with no approving consultant. */
export async function findAdministrators(db: Queryable, limit: number): Promise<ApproverRow[]> {
  return db.query<ApproverRow[]>(
    `WITH holders AS (
       SELECT tm.user_id FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id JOIN roles r ON r.id = tmr.role_id
        WHERE r.application_id = $1 AND r.name IN ('Administrator', 'God') AND tm.user_id IS NOT NULL
       UNION
       SELECT gm.user_id FROM tenant_members tm JOIN tenant_member_roles tmr ON tmr.tenant_member_id = tm.id JOIN roles r ON r.id = tmr.role_id
         JOIN group_members gm ON gm.group_id = tm.group_id
        WHERE r.application_id = $1 AND r.name IN ('Administrator', 'God')
     )
     SELECT u.id, ${userDisplay('u')} AS display_name, u.email, u.language
       FROM users u WHERE u.id IN (SELECT user_id FROM holders) AND NOT u.locked AND NOT u.draft
      ORDER BY display_name, u.id LIMIT $2`,
    [IDENTITY_APPLICATION_ID, limit],
  );
}

/** The caller's name, e-mail and internal category. */
export async function findCallerProfile(db: Queryable, userId: string): Promise<{ displayName: string; email: string | null; userName: string | null; category: string | null }> {
  const [row] = await db.query<Array<{ display_name: string; email: string; user_name: string; internal_category: string | null }>>(
    `SELECT ${userDisplay('u')} AS display_name, u.email, u.user_name, u.internal_category FROM users u WHERE u.id = $1`,
    [userId],
  );
  return { displayName: row?.display_name ?? `User_${userId}`, email: row?.email ?? null, userName: row?.user_name ?? null, category: row?.internal_category ?? null };
}

export async function findTenantTitle(db: Queryable, tenantId: string): Promise<string | undefined> {
  const [row] = await db.query<Array<{ title: string }>>('SELECT title FROM tenants WHERE id = $1', [tenantId]);
  return row?.title;
}
