import Router from '@koa/router';
import { likePattern, parseListQuery, type AppContext } from '@gatehouse/core';
import { requireRole } from '../../auth/permissions.js';
import { callerScope } from '../../auth/scope.js';
import { listTotal } from '../../list-total.js';

/** `/api/v1/admin/areas`: the areas, read-only (default sort: name ascending). */
export function areaRoutes(context: AppContext): Router {
  const router = new Router({ prefix: '/areas' });

  router.get('/', requireRole('areas.list'), async (ctx) => {
    const query = parseListQuery(ctx.query, { sortable: { name: 'a.name', default: 'a.is_default', system: 'a.is_system' }, defaultOrder: 'name asc' });
    // An area administrator sees only their areas (the users and groups they may touch live there).
    const { areaIds } = await callerScope(context, ctx);
    const filters = [query.search ? likePattern(query.search) : null, areaIds];
    const where = '($1::text IS NULL OR a.name ILIKE $1) AND ($2::uuid[] IS NULL OR a.id = ANY($2))';
    const rows: Array<{ id: string; name: string; is_default: boolean; is_system: boolean; total: string }> = await context.dataSource.query(
      `SELECT a.id, a.name, a.is_default, a.is_system, count(*) OVER () AS total
         FROM areas a
        WHERE ${where}
        ORDER BY ${query.orderBy}, a.id
        LIMIT $3 OFFSET $4`,
      [...filters, query.top, query.skip],
    );
    ctx.body = {
      items: rows.map((r) => ({ id: r.id, name: r.name, default: r.is_default, system: r.is_system })),
      count: await listTotal(rows, query.skip, async () => {
        const [row] = await context.dataSource.query(`SELECT count(*) FROM areas a WHERE ${where}`, filters);
        return Number(row.count);
      }),
    };
  });

  return router;
}
