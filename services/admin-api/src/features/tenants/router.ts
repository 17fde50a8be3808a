import Router from '@koa/router';
import { AppError, GLOBAL_TENANT_ID, likePattern, parseInput, parseListQuery, type AppContext } from '@gatehouse/core';
import { z } from 'zod';
import { callerOf } from '../../auth/koa-admin-auth.js';
import { requireRole } from '../../auth/permissions.js';
import { callerScope } from '../../auth/scope.js';
import { listTotal } from '../../list-total.js';
import { tenantIdSchema, twoModeAuthBodySchema, twoModeAuthResponseSchema } from './schema.js';
import { TenantsService } from './service.js';

/** `/tenants/*` under the admin API prefix; the caller is already authenticated. */
export function tenantRoutes(context: AppContext, service = new TenantsService(context)): Router {
  const router = new Router({ prefix: '/tenants' });

  /**
   * The tenants, for pickers and (later) the tenants page: title search, optional area filter,
   * default sort title ascending. The Global tenant is not listed: dialogs offer it as their own
   * "Global" option. An AreaAdministrator sees the tenants of their areas.
   */
  router.get('/', requireRole('tenants.list'), async (ctx) => {
    const query = parseListQuery(ctx.query, {
      sortable: { title: 't.title', areaName: 'a.name', modifiedOn: 't.modified_on' },
      defaultOrder: 'title asc',
    });
    const { area } = parseInput(z.object({ area: z.uuid().optional() }), { area: ctx.query.area });
    const scope = await callerScope(context, ctx);
    const rows: Array<{ id: string; title: string; area_id: string | null; area_name: string | null; parent_id: string | null; total: string }> =
      await context.dataSource.query(
        `SELECT t.id, t.title, t.area_id, a.name AS area_name, t.parent_id, count(*) OVER () AS total
           FROM tenants t LEFT JOIN areas a ON a.id = t.area_id
          WHERE t.id <> $1
            AND ($2::text IS NULL OR t.title ILIKE $2)
            AND ($3::uuid IS NULL OR t.area_id = $3)
            AND ($4::uuid[] IS NULL OR t.area_id = ANY($4))
          ORDER BY ${query.orderBy}, t.id
          LIMIT $5 OFFSET $6`,
        [GLOBAL_TENANT_ID, query.search ? likePattern(query.search) : null, area ?? null, scope.areaIds, query.top, query.skip],
      );
    ctx.body = {
      items: rows.map((r) => ({ id: r.id, title: r.title, areaId: r.area_id, areaName: r.area_name, parentId: r.parent_id })),
      count: await listTotal(rows, query.skip, () => countTenants(context, query.search, area ?? null, scope.areaIds)),
    };
  });

  router.post('/twoModeAuth/:id', requireRole('tenants.twoModeAuth'), async (ctx) => {
    // A malformed id names no tenant: the same 404 as an unknown one, never a database error.
    const id = tenantIdSchema.safeParse(ctx.params.id);
    if (!id.success) throw new AppError('errors.not_found', 404);
    const { enable } = parseInput(twoModeAuthBodySchema, ctx.request.body ?? {});
    const tenant = await service.setTwoModeAuth(callerOf(ctx), id.data, enable);
    ctx.body = twoModeAuthResponseSchema.parse(tenant);
  });

  return router;
}

async function countTenants(context: AppContext, search: string | null, area: string | null, areaIds: string[] | null): Promise<number> {
  const [row] = await context.dataSource.query(
    `SELECT count(*) FROM tenants t
      WHERE t.id <> $1 AND ($2::text IS NULL OR t.title ILIKE $2) AND ($3::uuid IS NULL OR t.area_id = $3) AND ($4::uuid[] IS NULL OR t.area_id = ANY($4))`,
    [GLOBAL_TENANT_ID, search ? likePattern(search) : null, area, areaIds],
  );
  return Number(row.count);
}
