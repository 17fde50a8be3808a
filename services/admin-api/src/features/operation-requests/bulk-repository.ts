import { IDENTITY_APPLICATION_ID } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import type { RequestPayload } from './repository.js';

/** A role a consultant may request, as the templates list it. */
export interface RequestableRoleValue {
  /** The application's name (its client id): unique, what a row names. */
  applicationName: string;
  applicationDisplayName: string;
  roleName: string;
}

/**
 * Every role an operation request may name (flagged for operation requests, not granted through the
 * hierarchy only, never God or Administrator of the Identity application), by application then role.
 */
export async function findRequestableRoleValues(db: Queryable): Promise<RequestableRoleValue[]> {
  const rows = await db.query<Array<{ application_name: string; display_name: string; role_name: string }>>(
    `SELECT a.name AS application_name, a.display_name, r.name AS role_name
       FROM roles r JOIN applications a ON a.id = r.application_id
      WHERE r.operation_request_visibility AND NOT r.by_hierarchy AND NOT (r.application_id = $1 AND r.name IN ('God', 'Administrator'))
      ORDER BY lower(a.name), a.name, lower(r.name), r.name`,
    [IDENTITY_APPLICATION_ID],
  );
  return rows.map((row) => ({ applicationName: row.application_name, applicationDisplayName: row.display_name, roleName: row.role_name }));
}

/**
 * The request an earlier attempt of an import made for the user in the tenant: a BulkInsert one
 * the requester created since the job first started, whatever became of it since.
 */
export async function findRequestMadeSince(
  db: Queryable,
  request: { tenantId: string; userId: string; createdById: string; since: Date },
): Promise<{ id: string; payload: RequestPayload } | undefined> {
  const [row] = await db.query<Array<{ id: string; payload: RequestPayload }>>(
    `SELECT id, payload FROM operation_requests
      WHERE tenant_id = $1 AND user_id = $2 AND created_by_id = $3 AND type = 'BulkInsert' AND created_at >= $4
      ORDER BY created_at DESC, id LIMIT 1`,
    [request.tenantId, request.userId, request.createdById, request.since],
  );
  return row;
}

/** Of these users, those created for the tenant since `since` (by an earlier attempt of the import). */
export async function findUsersCreatedForTenantSince(db: Queryable, userIds: string[], tenantId: string, since: Date): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db.query<Array<{ id: string }>>(
    `SELECT id FROM users WHERE id = ANY($1::uuid[]) AND created_for_tenant_id = $2 AND created_at >= $3`,
    [userIds, tenantId, since],
  );
  return new Set(rows.map((row) => row.id));
}
