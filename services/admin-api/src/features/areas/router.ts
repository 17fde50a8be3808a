import Router from '@koa/router';
import { likePattern, parseListQuery, type AppContext } from '@gatehouse/core';
import { requireRole } from '../../auth/permissions.js';

/** `/api/v1/admin/areas`: the areas, read-only (default sort: name ascending). */
export function areaRoutes(context: AppContext): Router {
  const router = new Router({ prefix: '/areas' });

  router.get('/', requireRole('areas.list'), async (ctx) => {
    const query = parseListQuery(ctx.query, { sortable: { name: 'a.name', default: 'a.is_default', system: 'a.is_system' }, defaultOrder: 'name asc' });
    const rows: Array<{ id: string; name: string; is_default: boolean; is_system: boolean; total: string }> = await context.dataSource.query(
      `SELECT a.id, a.name, a.is_default, a.is_system, count(*) OVER () AS total
         FROM areas a
        WHERE $1::text IS NULL OR a.name ILIKE $1
        ORDER BY ${query.orderBy}, a.id
        LIMIT $2 OFFSET $3`,
      [query.search ? likePattern(query.search) : null, query.top, query.skip],
    );
    ctx.body = {
      items: rows.map((r) => ({ id: r.id, name: r.name, default: r.is_default, system: r.is_system })),
      count: rows.length ? Number(rows[0]!.total) : await countAll(context, query.search),
    };
  });

  return router;
}

/** The total when the page asked for lies past the end (no row carries it). */
async function countAll(context: AppContext, search: string | null): Promise<number> {
  const [row] = await context.dataSource.query('SELECT count(*) FROM areas WHERE $1::text IS NULL OR name ILIKE $1', [
    search ? likePattern(search) : null,
  ]);
  return Number(row.count);
}
