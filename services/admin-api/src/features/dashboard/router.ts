import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { dashboardRoutes as routes } from '@gatehouse/contracts';
import type { Context } from 'koa';
import { adminRoutes } from '../../http/route.js';
import { DashboardService } from './service.js';

/** Figures of the moment: never kept by a browser or a proxy. */
const noStore = (ctx: Context) => ctx.set('Cache-Control', 'private, no-store');

/** `/api/v1/admin/dashboard/*`. */
export function dashboardRoutes(context: AppContext, service = new DashboardService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, routes.base, async ({ ctx }) => {
    const summary = await service.summary();
    noStore(ctx);
    return summary;
  });
  bind(router, routes.loginLastHours, async ({ ctx }) => {
    const points = await service.loginsPerHour();
    noStore(ctx);
    return points;
  });
  bind(router, routes.adminPerApp, async ({ ctx }) => {
    const bars = await service.adminsPerApplication();
    noStore(ctx);
    return bars;
  });
  bind(router, routes.globalAdminPerAreas, async ({ ctx, query }) => {
    const bars = await service.adminsPerArea({ tenantId: query.tenant, applicationId: query.application });
    noStore(ctx);
    return bars;
  });
  bind(router, routes.connectedPerApp, async ({ ctx }) => {
    const bars = await service.connectedPerApplication();
    noStore(ctx);
    return bars;
  });
  bind(router, routes.externalApiAccess, async ({ ctx, query }) => {
    const counts = await service.externalApiAccess(query);
    noStore(ctx);
    return counts;
  });
  return router;
}
