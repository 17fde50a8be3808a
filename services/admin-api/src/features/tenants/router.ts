import Router from '@koa/router';
import { tenantsRoutes } from '@gatehouse/contracts';
import { toListQuery, type AppContext } from '@gatehouse/core';
import { withStatus } from '@gatehouse/core/http';
import { adminRoutes } from '../../http/route.js';
import { exportPayload } from '../jobs/exports.js';
import { jobQueueOf } from '../jobs/runtime.js';
import { filtersOf } from './export.js';
import { TenantMembersService } from './members-service.js';
import { MEMBER_SORT } from './members-repository.js';
import { TENANT_SORT } from './repository.js';
import { TenantsService, visibleTenant } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/**
 * `/tenants/*`; the caller is already authenticated. The fixed paths (export, members/identity,
 * members/revokeAccess, twoModeAuth) are bound before the `/tenants/:id` patterns that would
 * otherwise take them.
 */
export function tenantRoutes(context: AdminContext, service = new TenantsService(context), members = new TenantMembersService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const routes = tenantsRoutes;

  bind(router, routes.list, async ({ scope, query }) => service.list(await scope(), toListQuery(query, TENANT_SORT), filtersOf(query)));
  // The exports run as background jobs (the job handlers of app.ts); their file comes with the notification.
  bind(router, routes.export, async ({ ctx, caller }) => ({
    jobId: await jobQueueOf(context).enqueue('ExportTenants', exportPayload(ctx, routes.export), { userId: caller.userId }),
  }));
  bind(router, routes.create, async ({ caller, scope, body }) => service.create(caller, await scope(), body));
  bind(router, routes.twoModeAuth, async ({ caller, params, body }) => service.setTwoModeAuth(caller, params.id, body));

  bind(router, routes.memberIdentity, async ({ scope, query }) => members.memberIdentity(await scope(), query.tenantId, query.identityId, query.isGroup));
  bind(router, routes.revokeAccess, async ({ caller, scope, body }) => members.revoke(caller, await scope(), body));

  bind(router, routes.get, async ({ scope, params, query }) => service.get(await scope(), params.id, query));
  bind(router, routes.update, async ({ caller, scope, params, body }) => service.update(caller, await scope(), params.id, body));
  bind(router, routes.delete, async ({ caller, scope, params }) => service.remove(caller, await scope(), params.id));
  bind(router, routes.hierarchyTree, async ({ scope, params }) => service.hierarchyTree(await scope(), params.tenantId));
  bind(router, routes.changeParent, async ({ caller, scope, params, body }) => service.changeParent(caller, await scope(), params.tenantId, body.newParentId));

  bind(router, routes.members, async ({ scope, params, query }) =>
    members.list(await scope(), params.id, toListQuery(query, MEMBER_SORT), { includeRoles: query.includeRoles, excludeUserGlobal: query.excludeUserGlobal }),
  );
  bind(router, routes.membersExport, async ({ ctx, caller, scope, params }) => {
    // A tenant the caller cannot see is a 404 now, not a failed job later.
    await visibleTenant(context.dataSource, await scope(), params.id);
    return { jobId: await jobQueueOf(context).enqueue('ExportMembers', exportPayload(ctx, routes.membersExport), { userId: caller.userId }) };
  });
  bind(router, routes.addMember, async ({ caller, scope, params, body }) => {
    const { created, member } = await members.add(caller, await scope(), params.id, body);
    // 201 for a new membership, 200 for roles added to one the identity had.
    return withStatus(created ? 201 : 200, member);
  });

  return router;
}
