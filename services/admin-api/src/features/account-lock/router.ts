import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { callerOf } from '../../auth/koa-admin-auth.js';
import { requireRole } from '../../auth/permissions.js';
import { callerScope } from '../../auth/scope.js';
import { adminMailer } from '../users/router.js';
import { lockResultSchema, pathId } from '../users/schema.js';
import { UsersService } from '../users/service.js';

/**
 * `GET /api/v1/account/lock/{id}` and `/unlock/{id}`: the spec's paths and method. A GET that changes
 * state is safe here only because these paths take nothing but the bearer token (createApp
 * authenticates them like the admin API; no cookie is ever read), which a cross-site page cannot
 * attach to a link or an image. `Cache-Control: no-store` keeps any cache from replaying them.
 */
export function accountLockRoutes(context: AppContext, service = new UsersService(context, adminMailer(context))): Router {
  const router = new Router({ prefix: '/api/v1/account' });

  router.get('/lock/:id', requireRole('users.lock'), async (ctx) => {
    const user = await service.lock(callerOf(ctx), await callerScope(context, ctx), pathId(ctx.params.id));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = lockResultSchema.parse({ success: true, user });
  });

  router.get('/unlock/:id', requireRole('users.unlock'), async (ctx) => {
    const user = await service.unlock(callerOf(ctx), await callerScope(context, ctx), pathId(ctx.params.id));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = lockResultSchema.parse({ success: true, user });
  });

  return router;
}
