import Router from '@koa/router';
import { usersRoutes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import { adminRoutes } from '../../http/route.js';
import { AccountLockService } from './service.js';

/**
 * `GET /api/v1/account/lock/{id}` and `/unlock/{id}`, authenticated by createApp like the admin
 * API (no cookie is ever read). `Cache-Control: no-store` keeps any cache from replaying them.
 */
export function accountLockRoutes(context: AppContext, service = new AccountLockService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, usersRoutes.lock, async ({ ctx, caller, scope, params }) => {
    const user = await service.lock(caller, await scope(), params.id);
    ctx.set('Cache-Control', 'no-store');
    return { success: true as const, user };
  });
  bind(router, usersRoutes.unlock, async ({ ctx, caller, scope, params }) => {
    const user = await service.unlock(caller, await scope(), params.id);
    ctx.set('Cache-Control', 'no-store');
    return { success: true as const, user };
  });
  return router;
}
