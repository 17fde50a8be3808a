import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { areasRoutes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { AreasService } from './service.js';

/** `/api/v1/admin/areas`: the areas, read-only (default sort: name ascending). */
export function areaRoutes(context: AppContext, service = new AreasService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, areasRoutes.list, async ({ query, scope }) => service.list(query, await scope()));
  return router;
}
