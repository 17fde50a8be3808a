import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { dashboardRoutes as routes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { IdentifyAsService } from './service.js';

/** `/api/v1/admin/dashboard/identyfyasEnabled` and `…/identifyAs/:id`: the console's Identify As tile. */
export function identifyAsRoutes(context: AppContext, service = new IdentifyAsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, routes.identifyAsEnabled, async ({ caller }) => service.availability(caller));
  bind(router, routes.identifyAs, async ({ ctx, caller, params }) => {
    const started = await service.start(caller, params.id);
    // The answer carries a one-time code: never kept by a browser or a proxy.
    ctx.set('Cache-Control', 'no-store');
    return started;
  });
  return router;
}
