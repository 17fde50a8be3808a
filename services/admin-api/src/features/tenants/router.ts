import Router from '@koa/router';
import { tenantsRoutes } from '@gatehouse/contracts';
import { toListQuery, type AppContext } from '@gatehouse/core';
import { withStatus } from '@gatehouse/core/http';
import type { Context } from 'koa';
import { attachment } from '../../excel/workbook.js';
import { adminRoutes } from '../../http/route.js';
import { membersWorkbook, tenantsWorkbook } from './export.js';
import { TenantMembersService } from './members-service.js';
import { MEMBER_SORT } from './members-repository.js';
import { TENANT_SORT } from './repository.js';
import { TenantsService } from './service.js';

/** The list's and the export's filters, from their query. */
const filtersOf = (query: { area?: string; isUserCustomized?: boolean; creation?: 'Auto' | 'Manual'; parent?: string; includeHierarchy?: boolean }) => ({
  areaId: query.area,
  isUserCustomized: query.isUserCustomized,
  creation: query.creation,
  parentId: query.parent,
  includeHierarchy: query.includeHierarchy,
});

/**
 * `/tenants/*`; the caller is already authenticated. The fixed paths (export, members/identity,
 * members/revokeAccess, twoModeAuth) are bound before the `/tenants/:id` patterns that would
 * otherwise take them.
 */
export function tenantRoutes(context: AppContext, service = new TenantsService(context), members = new TenantMembersService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const routes = tenantsRoutes;
  const language = (ctx: Context) => ctx.state.language as string;

  bind(router, routes.list, async ({ scope, query }) => service.list(await scope(), toListQuery(query, TENANT_SORT), filtersOf(query)));
  bind(router, routes.export, async ({ ctx, scope, query }) => {
    const callerScope = await scope();
    const { orderBy } = toListQuery({ ...query, skip: 0, top: 1 }, TENANT_SORT);
    const filters = { ...filtersOf(query), includeHierarchy: true };
    const file = await tenantsWorkbook(context, language(ctx), async (skip, top) =>
      (await service.list(callerScope, { search: query.$search ?? null, skip, top, orderBy }, filters)).items,
    );
    attachment(ctx, 'Tenants.xlsx');
    ctx.body = file;
  });
  bind(router, routes.create, async ({ caller, scope, body }) => service.create(caller, await scope(), body));
  bind(router, routes.twoModeAuth, async ({ caller, params, body }) => service.setTwoModeAuth(caller, params.id, body.enable));

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
  bind(router, routes.membersExport, async ({ ctx, scope, params, query }) => {
    const callerScope = await scope();
    const file = await membersWorkbook(context, language(ctx), (skip, top) => members.batch(callerScope, params.id, query.excludeUserGlobal, skip, top));
    attachment(ctx, 'Members.xlsx');
    ctx.body = file;
  });
  bind(router, routes.addMember, async ({ caller, scope, params, body }) => {
    const { created, member } = await members.add(caller, await scope(), params.id, body);
    // 201 for a new membership, 200 for roles added to one the identity had.
    return withStatus(created ? 201 : 200, member);
  });

  return router;
}
