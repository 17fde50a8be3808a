import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { meRoutes as routes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { MeService } from './service.js';

/**
 * `GET /me`: who the console is talking to and the roles the API will judge them by (those of the
 * token), so the console decides entry and menus on exactly what the server enforces.
 */
export function meRoutes(context: AppContext, service = new MeService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, routes.get, async ({ caller, ctx }) => {
    const me = await service.get(caller);
    ctx.set('Cache-Control', 'private, no-store');
    return me;
  });
  return router;
}
