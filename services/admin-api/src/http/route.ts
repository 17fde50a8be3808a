import { statusClass, type AppContext } from '@gatehouse/core';
import { routeKit, toAppError, type RouteHandler } from '@gatehouse/core/http';
import type { EndpointName, RouteContract } from '@gatehouse/contracts';
import type { Middleware } from 'koa';
import { callerOf, type Caller } from '../auth/koa-admin-auth.js';
import { requireRole, type RoleGuard } from '../auth/permissions.js';
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
    guard: (contract) => counted(context, contract, requireRole(contract.endpoint as EndpointName)),
    extra: (ctx) => {
      let scope: Promise<CallerScope> | undefined;
      return { caller: callerOf(ctx), scope: () => (scope ??= callerScope(context, ctx)) };
    },
  });
}

/**
 * Counts each call by its endpoint's group (`users` of `users.list`) and the class of its answer,
 * a refusal included (the status it will be answered with). Still names its endpoint, as the role
 * guard it wraps does.
 */
function counted(context: AppContext, contract: RouteContract, guard: RoleGuard): RoleGuard {
  const group = contract.endpoint.split('.')[0]!;
  const calls = context.metrics.adminCalls;
  const count: Middleware = async (ctx, next) => {
    try {
      await guard(ctx, next);
    } catch (error) {
      calls.inc({ group, status_class: statusClass(toAppError(error, context.config.server.bodyLimit).status) });
      throw error;
    }
    calls.inc({ group, status_class: statusClass(ctx.status) });
  };
  return Object.assign(count, { endpoint: guard.endpoint });
}
