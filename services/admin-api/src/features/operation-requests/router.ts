import Router from '@koa/router';
import { operationRequestsRoutes } from '@gatehouse/contracts';
import { toListQuery, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { adminRoutes } from '../../http/route.js';
import { OPERATION_REQUEST_SORT } from './repository.js';
import { OperationRequestsService } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/**
 * `/operationRequests/*` (the portal's My Clients, Access Requests); the caller is already
 * authenticated and holds one of the endpoint's roles, the tenant checks are the service's. The
 * fixed paths come before nothing that could take them: every path here has its own prefix.
 */
export function operationRequestRoutes(context: AdminContext, service = new OperationRequestsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const routes = operationRequestsRoutes;
  const actor = (ctx: Context, caller: Caller) => service.actor(caller, ctx.state.language as string);

  bind(router, routes.list, async ({ ctx, caller, query }) => {
    // The portal's own names for the search and the page size.
    const page = { ...query, $search: query.$search ?? query.searchQuery, top: query.take ?? query.top };
    const filter = { tenantId: query.tenantId, status: query.status, onlyUser: query.onlyUser, external: query.external };
    return service.list(await actor(ctx, caller), filter, toListQuery(page, OPERATION_REQUEST_SORT));
  });
  bind(router, routes.create, async ({ ctx, caller, body }) => service.create(await actor(ctx, caller), { ...body, autoApprove: body.autoApprove ?? false }));
  bind(router, routes.permissions, async ({ ctx, caller, query }) =>
    service.permissions(await actor(ctx, caller), query.tenantId, { type: query.isGroup ? 'Group' : 'User', id: query.identityId }),
  );
  bind(router, routes.createPermissions, async ({ ctx, caller, query, body }) =>
    service.create(await actor(ctx, caller), { ...body, tenantId: query.tenantId, autoApprove: query.autoApprove || (body.autoApprove ?? false) }),
  );
  bind(router, routes.edit, async ({ ctx, caller, params, body }) => service.edit(await actor(ctx, caller), params.id, body));
  bind(router, routes.approveInBulk, async ({ ctx, caller, body }) => service.inBulk(await actor(ctx, caller), body.ids, 'approve', null, body.versions));
  bind(router, routes.rejectInBulk, async ({ ctx, caller, body }) => service.inBulk(await actor(ctx, caller), body.ids, 'reject', body.reason ?? null));
  bind(router, routes.approve, async ({ ctx, caller, params, body }) => service.approve(await actor(ctx, caller), params.id, body.version));
  bind(router, routes.reject, async ({ ctx, caller, params, body }) => service.reject(await actor(ctx, caller), params.id, body.reason ?? null));
  bind(router, routes.cancel, async ({ ctx, caller, params }) => service.cancel(await actor(ctx, caller), params.id));
  bind(router, routes.history, async ({ ctx, caller, params }) => service.history(await actor(ctx, caller), params.id));
  return router;
}

