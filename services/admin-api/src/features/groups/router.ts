import Router from '@koa/router';
import { toListQuery, type AppContext } from '@gatehouse/core';
import { withStatus } from '@gatehouse/core/http';
import { groupsRoutes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { GroupsService } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/** The groups list's sortable fields and the columns they sort by. */
const GROUP_SORT = { name: 'g.name', description: 'g.description', areaName: 'a.name' };
/** The members list's sortable fields and the columns they sort by. */
const MEMBER_SORT = { userName: 'u.user_name', email: 'u.email', permission: 'gm.permission' };

/** `/groups/*`: the groups, their members and their tenant roles; the caller is already authenticated. */
export function groupRoutes(context: AdminContext, service = new GroupsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const routes = groupsRoutes;

  bind(router, routes.list, async ({ caller, scope, query }) => service.list(caller, await scope(), toListQuery(query, GROUP_SORT), query.area));
  bind(router, routes.create, async ({ caller, scope, body }) => service.create(caller, await scope(), body));
  bind(router, routes.get, async ({ caller, scope, params }) => service.get(caller, await scope(), params.id));
  bind(router, routes.update, async ({ caller, scope, params, body }) => service.update(caller, await scope(), params.id, body));
  bind(router, routes.delete, async ({ caller, scope, params }) => service.remove(caller, await scope(), params.id));

  bind(router, routes.members, async ({ scope, params, query }) => service.members(await scope(), params.id, toListQuery(query, MEMBER_SORT)));
  bind(router, routes.addMember, async ({ caller, scope, params, body }) => service.addMember(caller, await scope(), params.id, body.userId, body.permission));
  bind(router, routes.updateMember, async ({ caller, scope, params, body }) =>
    service.updateMember(caller, await scope(), params.id, params.userId, body.permission),
  );
  bind(router, routes.removeMember, async ({ caller, scope, params }) => service.removeMember(caller, await scope(), params.id, params.userId));

  bind(router, routes.tenants, async ({ caller, scope, params }) => service.tenants(caller, await scope(), params.id));
  bind(router, routes.addTenantRoles, async ({ caller, scope, params, body }) => {
    const { created, entry } = await service.addTenantRoles(caller, await scope(), params.id, body);
    // 201 for a tenant the group had no roles in, 200 for roles added to one it had.
    return withStatus(created ? 201 : 200, entry);
  });
  bind(router, routes.removeTenant, async ({ caller, scope, params }) => service.removeTenant(caller, await scope(), params.id, params.tenantId));

  return router;
}

/**
 * The user detail's "Add user to group" dialog: `/users/{id}/groups`, next to the users routes,
 * with the same rules as the group's own member routes.
 */
export function userGroupRoutes(context: AdminContext, service = new GroupsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);

  bind(router, groupsRoutes.addUserToGroup, async ({ caller, scope, params, body }) =>
    service.addUserToGroup(caller, await scope(), params.id, body.groupId, body.permission),
  );
  bind(router, groupsRoutes.removeUserFromGroup, async ({ caller, scope, params }) =>
    service.removeMember(caller, await scope(), params.groupId, params.id, 'user'),
  );

  return router;
}
