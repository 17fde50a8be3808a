import { type AppContext } from '@gatehouse/core';
import { routeKit, type RouteHandler } from '@gatehouse/core/http';
import type { EndpointName, RouteContract } from '@gatehouse/contracts';
import { callerOf, type Caller } from '../auth/koa-admin-auth.js';
import { requireRole } from '../auth/permissions.js';
import { callerScope, type CallerScope } from '../auth/scope.js';

/** What every admin handler is given besides its input. */
export interface AdminCall {
  caller: Caller;
  /** The areas the caller reaches with this endpoint's roles (one query, for an AreaAdministrator only). */
  scope: () => Promise<CallerScope>;
}

export type AdminHandler<C extends RouteContract> = RouteHandler<C, AdminCall>;

/**
 * The admin API's way to add a route: `bind(router, usersRoutes.list, handler)`. The caller was
 * authenticated before the router ran; the route's `endpoint` names its roles in ENDPOINT_ROLES.
 */
export function adminRoutes(context: AppContext) {
  return routeKit<AdminCall>({
    guard: (contract) => requireRole(contract.endpoint as EndpointName),
    extra: (ctx) => {
      let scope: Promise<CallerScope> | undefined;
      return { caller: callerOf(ctx), scope: () => (scope ??= callerScope(context, ctx)) };
    },
  });
}
