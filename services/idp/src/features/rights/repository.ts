import type { RightsRequestFields } from '@gatehouse/contracts';
import type { Queryable } from '@gatehouse/core';
import type { CheckedDocument } from './documents.js';

/** The data source, or the entity manager of a transaction. */
export type RightsDb = Queryable;

/** The signed-in user sending a request. */
export interface RequesterRow {
  id: string;
  user_name: string;
}

/** The requester's account; undefined once it has been deleted. */
export async function findRequester(db: RightsDb, userId: string): Promise<RequesterRow | undefined> {
  const [row] = await db.query<RequesterRow[]>('SELECT id, user_name FROM users WHERE id = $1', [userId]);
  return row;
}

/** The requests the user sent within the last hour, and in how many seconds the oldest of them leaves that hour. */
export async function requestsInLastHour(db: RightsDb, userId: string): Promise<{ count: number; retryAfter: number }> {
  const [row] = await db.query<Array<{ count: number; retry_after: number | null }>>(
    `SELECT count(*)::int AS count,
            ceil(extract(epoch FROM min(created_at) + interval '1 hour' - now()))::int AS retry_after
       FROM rights_requests
      WHERE user_id = $1 AND created_at > now() - interval '1 hour'`,
    [userId],
  );
  return { count: row?.count ?? 0, retryAfter: Math.max(1, row?.retry_after ?? 1) };
}

/** Within a transaction: the user's requests are counted and stored one at a time, on every node. */
export async function lockRequester(db: RightsDb, userId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rights-request:${userId}`]);
}

/** Stores a request and its documents (within the caller's transaction); its id and when it was received. */
export async function insertRightsRequest(
  db: RightsDb,
  userId: string,
  fields: RightsRequestFields,
  documents: readonly CheckedDocument[],
): Promise<{ id: string; created_at: Date }> {
  const [request] = await db.query<Array<{ id: string; created_at: Date }>>(
    `INSERT INTO rights_requests (user_id, request_date, full_name, email, request_type, representative_data, rights, request_details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     RETURNING id, created_at`,
    [userId, fields.requestDate, fields.fullName, fields.email, fields.requestType, fields.representativeData, fields.rightsToExcercise, fields.requestDetails],
  );
  for (const document of documents) {
    await db.query(
      'INSERT INTO rights_request_files (rights_request_id, file_name, content_type, size, content) VALUES ($1, $2, $3, $4, $5)',
      [request!.id, document.fileName, document.contentType, document.size, document.content],
    );
  }
  return request!;
}
