import { likePattern, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** The SQL each sortable field of the list sorts by. */
export const RIGHTS_REQUEST_SORT = { createdAt: 'r.created_at', requestDate: 'r.request_date', fullName: 'r.full_name', email: 'r.email' } as const;

export interface RightsRequestRow {
  id: string;
  created_at: Date;
  /** `YYYY-MM-DD`. */
  request_date: string;
  full_name: string;
  email: string;
  request_type: 'Direct' | 'Representative';
  rights: string[];
  user_id: string | null;
  user_name: string | null;
  file_count: number;
  representative_data: string | null;
  request_details: string | null;
}

export interface RightsRequestFileRow {
  id: string;
  file_name: string;
  content_type: string;
  size: number;
}

// to_char: the day as written, whatever time zone the database session runs in.
const COLUMNS = `r.id, r.created_at, to_char(r.request_date, 'YYYY-MM-DD') AS request_date, r.full_name, r.email, r.request_type, r.rights,
  r.user_id, u.user_name, r.representative_data, r.request_details,
  (SELECT count(*)::int FROM rights_request_files f WHERE f.rights_request_id = r.id) AS file_count`;
const WHERE = '($1::text IS NULL OR r.full_name ILIKE $1 OR r.email ILIKE $1)';

/** A page of the requests whose name or e-mail matches the search, and their total. */
export async function listRightsRequests(db: Queryable, query: ListQuery): Promise<{ rows: RightsRequestRow[]; count: number }> {
  const search = query.search ? likePattern(query.search) : null;
  const rows = await db.query<Array<RightsRequestRow & { total: string }>>(
    `SELECT ${COLUMNS}, count(*) OVER () AS total
       FROM rights_requests r LEFT JOIN users u ON u.id = r.user_id
      WHERE ${WHERE}
      ORDER BY ${query.orderBy}, r.id
      LIMIT $2 OFFSET $3`,
    [search, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM rights_requests r WHERE ${WHERE}`, [search]);
    return Number(row!.count);
  });
  return { rows, count };
}

/** One request; undefined when there is none with this id. */
export async function findRightsRequest(db: Queryable, id: string): Promise<RightsRequestRow | undefined> {
  const [row] = await db.query<RightsRequestRow[]>(`SELECT ${COLUMNS} FROM rights_requests r LEFT JOIN users u ON u.id = r.user_id WHERE r.id = $1`, [id]);
  return row;
}

/** The documents of a request (without their content), in the order they were sent. */
export async function listRightsRequestFiles(db: Queryable, requestId: string): Promise<RightsRequestFileRow[]> {
  return db.query<RightsRequestFileRow[]>(
    'SELECT id, file_name, content_type, size FROM rights_request_files WHERE rights_request_id = $1 ORDER BY created_at, file_name, id',
    [requestId],
  );
}

/** One document of a request, with its content; undefined when the request has no such document. */
export async function findRightsRequestFile(db: Queryable, requestId: string, fileId: string): Promise<(RightsRequestFileRow & { content: Buffer }) | undefined> {
  const [row] = await db.query<Array<RightsRequestFileRow & { content: Buffer }>>(
    'SELECT id, file_name, content_type, size, content FROM rights_request_files WHERE id = $1 AND rights_request_id = $2',
    [fileId, requestId],
  );
  return row;
}
