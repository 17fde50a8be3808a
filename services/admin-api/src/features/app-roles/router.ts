import Router from '@koa/router';
import { appRolesRoutes, applicationUsersRoutes } from '@gatehouse/contracts';
import { toListQuery, type AppContext } from '@gatehouse/core';
import { adminRoutes } from '../../http/route.js';
import { AppRolesService } from './service.js';
import { ROLE_SORT } from './repository.js';
import { APPLICATION_USER_SORT } from './users-repository.js';
import { ApplicationUsersService } from './users-service.js';

const SCOPE_SORT = { scope: 's.scope' } as const;

/** `app/{appId}/roles…`: an application's roles and their access scopes. */
export function appRoleRoutes(context: AppContext, service = new AppRolesService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const r = appRolesRoutes;

  bind(router, r.list, async ({ params, query }) => service.list(params.appId, toListQuery(query, ROLE_SORT)));
  bind(router, r.create, async ({ params, body, caller }) => service.create(caller, params.appId, body));
  bind(router, r.get, async ({ params }) => service.get(params.appId, params.roleId));
  bind(router, r.update, async ({ params, body, caller }) => service.update(caller, params.appId, params.roleId, body));
  bind(router, r.delete, async ({ params, caller }) => service.remove(caller, params.appId, params.roleId));

  bind(router, r.scopes, async ({ params, query }) => service.scopes(params.appId, params.roleId, toListQuery(query, SCOPE_SORT)));
  bind(router, r.createScope, async ({ params, body, caller }) => service.createScope(caller, params.appId, params.roleId, body.scope));
  bind(router, r.updateScope, async ({ params, body, caller }) =>
    service.updateScope(caller, params.appId, params.roleId, params.scopeId, body.scope),
  );
  bind(router, r.deleteScope, async ({ params, caller }) => service.removeScope(caller, params.appId, params.roleId, params.scopeId));
  return router;
}

/** `applications/{id}/users`, `/usersWithRoles` and `/permissions`: who holds the application's roles, and what they grant. */
export function applicationUserRoutes(context: AppContext, roles = new AppRolesService(context), service = new ApplicationUsersService(context, roles)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const r = applicationUsersRoutes;

  bind(router, r.users, async ({ params, query, scope }) => {
    const { globalRoles, areaId } = query;
    return service.list(await scope(), params.id, toListQuery(query, APPLICATION_USER_SORT), { globalRoles, areaId });
  });
  bind(router, r.usersWithRoles, async ({ params, query, scope }) => {
    const { globalRoles, areaId, roleIds } = query;
    return service.list(await scope(), params.id, toListQuery(query, APPLICATION_USER_SORT), { globalRoles, areaId, roleIds });
  });
  bind(router, r.permissions, async ({ params }) => roles.permissions(params.id));
  return router;
}
