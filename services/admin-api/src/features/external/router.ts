import Router from '@koa/router';
import { externalRoutes as routes } from '@gatehouse/contracts';
import { runIdempotently } from './idempotency.js';
import { ExternalInvitations } from './invitations.js';
import { externalRoutes } from './route-kit.js';
import { ExternalService } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/**
 * `/api/v1/external/*`: one route per event of the external API access log. The caller (an
 * application) is authenticated before the router runs; every route is rate-limited per caller and
 * writes its log row (route-kit.ts); the invitations take an idempotency key.
 */
export function externalRouter(context: AdminContext, service = new ExternalService(context), invitations = new ExternalInvitations(context)): Router {
  const router = new Router();
  const { bind } = externalRoutes(context);

  bind(router, routes.GetRoles, async ({ caller, params, query, note }) => {
    note({ userId: params.userId, tenantId: query.tenantId ?? null });
    return service.roles(caller, params.userId, query.tenantId);
  });
  bind(router, routes.RemoveRolesInTenant, async ({ caller, params, query, note }) => {
    const answer = await service.removeRoles(caller, params.userId, params.tenantId, query.roles);
    note({ removed: answer.removed.map((role) => role.roleName) });
    return answer;
  });
  bind(router, routes.GetUserWithRole, async ({ caller, params, query, note }) => {
    const page = await service.roleHolders(caller, params.role, query);
    note({ count: page.count });
    return page;
  });
  for (const [route, mode] of [[routes.InviteUsers, 'grant'], [routes.InviteUsersWithOperationRequest, 'request']] as const) {
    bind(router, route, async ({ ctx, caller, params, body, idempotencyKey, language, note }) => {
      note({ tenantId: params.tenantId, invitees: body.users.map((user) => user.email), roles: body.roles, ...(idempotencyKey ? { idempotencyKey } : {}) });
      const call = { caller: caller.key, key: idempotencyKey, apiEntry: route.endpoint, request: { params, body } };
      const { body: answer, replayed } = await runIdempotently(context.dataSource, call, () => invitations.invite(caller, params.tenantId, body, language, mode));
      if (replayed) ctx.set('Idempotent-Replayed', 'true');
      note({ replayed, results: answer.items.map((item) => ({ email: item.email, status: item.status, userId: item.userId, operationRequestId: item.operationRequestId, error: item.error?.code ?? null })) });
      return answer;
    });
  }
  bind(router, routes.LockUser, async ({ caller, params }) => service.lock(caller, params.userId));
  bind(router, routes.GetEntities, async ({ caller, query, note }) => {
    const page = await service.entities(caller, query);
    note({ count: page.count });
    return page;
  });
  return router;
}
