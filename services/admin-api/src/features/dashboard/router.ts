import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { dashboardRoutes as routes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { DashboardService } from './service.js';

/** `/api/v1/admin/dashboard/*`. */
export function dashboardRoutes(context: AppContext, service = new DashboardService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, routes.base, async ({ ctx }) => {
    const summary = await service.summary();
    ctx.set('Cache-Control', 'private, no-store');
    return summary;
  });
  return router;
}
