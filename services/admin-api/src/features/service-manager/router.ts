import Router from '@koa/router';
import { serviceManagerRoutes } from '@gatehouse/contracts';
import { toListQuery, type AppContext } from '@gatehouse/core';
import { adminRoutes } from '../../http/route.js';
import { SERVICE_MANAGER_TENANT_SORT, SERVICE_MANAGER_USER_SORT } from './repository.js';
import { ServiceManagerService, serviceManagerActorOf } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/** The portal's list parameters (searchQuery, take) win over the product's ($search, top) when both are given. */
const portalList = <Q extends { $search?: string; top: number; searchQuery?: string; take?: number }>(query: Q): Q => ({
  ...query,
  $search: query.searchQuery ?? query.$search,
  top: query.take ?? query.top,
});

/** `/serviceManager/*`: the portal's Service Manager screen; the caller is already authenticated. */
export function serviceManagerRouter(context: AdminContext, service = new ServiceManagerService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const routes = serviceManagerRoutes;
  const actor = (caller: Parameters<typeof serviceManagerActorOf>[1]) => serviceManagerActorOf(context, caller);

  bind(router, routes.tenants, async ({ caller, query }) => service.tenants(await actor(caller), toListQuery(portalList(query), SERVICE_MANAGER_TENANT_SORT)));
  bind(router, routes.users, async ({ caller, params, query }) =>
    service.users(await actor(caller), params.tenantId, toListQuery(portalList(query), SERVICE_MANAGER_USER_SORT)),
  );
  bind(router, routes.permissions, async ({ caller, params }) => service.permissions(caller, await actor(caller), params.tenantId, params.userId));
  bind(router, routes.setPermissions, async ({ caller, params, body }) =>
    service.setPermissions(caller, await actor(caller), params.tenantId, params.userId, body),
  );

  return router;
}
