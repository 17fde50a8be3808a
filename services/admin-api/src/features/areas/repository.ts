import { likePattern, type ListQuery } from '@gatehouse/core';
import type { Queryable } from '../../db.js';
import { listTotal } from '../../list-total.js';

/** The SQL each sortable field of the area list sorts by. */
export const AREA_SORT = { name: 'a.name', default: 'a.is_default', system: 'a.is_system' } as const;

export interface AreaRow {
  id: string;
  name: string;
  is_default: boolean;
  is_system: boolean;
}

const WHERE = '($1::text IS NULL OR a.name ILIKE $1) AND ($2::uuid[] IS NULL OR a.id = ANY($2))';

/** A page of the areas whose name matches the search, within `areaIds` (null: every area), and their total. */
export async function listAreas(db: Queryable, query: ListQuery, areaIds: string[] | null): Promise<{ rows: AreaRow[]; count: number }> {
  const filters = [query.search ? likePattern(query.search) : null, areaIds];
  const rows = await db.query<Array<AreaRow & { total: string }>>(
    `SELECT a.id, a.name, a.is_default, a.is_system, count(*) OVER () AS total
       FROM areas a
      WHERE ${WHERE}
      ORDER BY ${query.orderBy}, a.id
      LIMIT $3 OFFSET $4`,
    [...filters, query.top, query.skip],
  );
  const count = await listTotal(rows, query.skip, async () => {
    const [row] = await db.query<Array<{ count: string }>>(`SELECT count(*) FROM areas a WHERE ${WHERE}`, filters);
    return Number(row!.count);
  });
  return { rows, count };
}
