import Router from '@koa/router';
import { tenantsRoutes } from '@gatehouse/contracts';
import { toListQuery, type AppContext } from '@gatehouse/core';
import { adminRoutes } from '../../http/route.js';
import { TenantsService } from './service.js';

/** The tenants list's sortable fields and the columns they sort by. */
const TENANT_SORT = { title: 't.title', areaName: 'a.name', modifiedOn: 't.modified_on' };

/** `/tenants/*`; the caller is already authenticated. */
export function tenantRoutes(context: AppContext, service = new TenantsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);

  bind(router, tenantsRoutes.list, async ({ scope, query }) => service.list(await scope(), toListQuery(query, TENANT_SORT), query.area));
  bind(router, tenantsRoutes.twoModeAuth, async ({ caller, params, body }) => service.setTwoModeAuth(caller, params.id, body.enable));

  return router;
}
