import { likePattern, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** The SQL each sortable field of the role list sorts by. */
export const APPLICATION_ROLE_SORT = { name: 'r.name', applicationName: 'app.display_name, r.name' } as const;

export interface ApplicationRoleRow {
  id: string;
  name: string;
  description: string | null;
  by_hierarchy: boolean;
  application_id: string;
  application_name: string;
}

const FROM = 'roles r JOIN applications app ON app.id = r.application_id';
// Without an application named, the applications hidden from user lists (the product's own clients) are left out.
const WHERE = `(($1::text IS NULL AND NOT app.hide_in_user_list) OR r.application_id = $1) AND ($2::text IS NULL OR r.name ILIKE $2 OR app.display_name ILIKE $2)`;

/** A page of the roles of one application (or of all) whose role or application name matches the search, and their total. */
export async function listApplicationRoles(
  db: Queryable,
  query: ListQuery,
  applicationId: string | null,
): Promise<{ rows: ApplicationRoleRow[]; count: number }> {
  const filters = [applicationId, query.search ? likePattern(query.search) : null];
  const rows = await db.query<Array<ApplicationRoleRow & { total: string }>>(
    `SELECT r.id, r.name, r.description, r.by_hierarchy, r.application_id, app.display_name AS application_name, count(*) OVER () AS total
       FROM ${FROM}
      WHERE ${WHERE}
      ORDER BY ${query.orderBy}, r.id
      LIMIT $3 OFFSET $4`,
    [...filters, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM ${FROM} WHERE ${WHERE}`, filters);
    return Number(row!.count);
  });
  return { rows, count };
}
