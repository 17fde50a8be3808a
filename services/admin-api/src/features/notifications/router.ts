import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { notificationsRoutes as routes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { NotificationsService } from './service.js';

/** `/api/v1/admin/notifications` and `/api/v1/admin/tasks/active`: the caller's own. */
export function notificationRoutes(context: AppContext, service = new NotificationsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, routes.active, async ({ ctx, caller, query }) => service.active(caller, query, ctx.state.language as string));
  bind(router, routes.markRead, async ({ caller, body }) => service.markRead(caller, body));
  bind(router, routes.deleteAll, async ({ caller }) => service.removeAll(caller));
  bind(router, routes.delete, async ({ caller, params }) => service.remove(caller, params.id));
  bind(router, routes.activeTasks, async ({ caller }) => service.activeTasks(caller));
  return router;
}
