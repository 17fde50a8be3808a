import Router from '@koa/router';
import { AppError, parseInput, type AppContext } from '@gatehouse/core';
import { callerOf } from '../../auth/koa-admin-auth.js';
import { requireRole } from '../../auth/permissions.js';
import { tenantIdSchema, twoModeAuthBodySchema, twoModeAuthResponseSchema } from './schema.js';
import { TenantsService } from './service.js';

/** `/tenants/*` under the admin API prefix; the caller is already authenticated. */
export function tenantRoutes(context: AppContext, service = new TenantsService(context)): Router {
  const router = new Router({ prefix: '/tenants' });

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
