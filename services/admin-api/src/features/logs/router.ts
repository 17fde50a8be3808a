import Router from '@koa/router';
import { logsRoutes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import { adminRoutes } from '../../http/route.js';
import { exportPayload } from '../jobs/exports.js';
import { jobQueueOf } from '../jobs/runtime.js';
import { LogsService } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/**
 * `/logs/*`: the Logs page's four tabs and the exports of two; the caller is already
 * authenticated. The export paths are fixed, so their order among the routes does not matter.
 */
export function logRoutes(context: AdminContext, service = new LogsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const routes = logsRoutes;

  bind(router, routes.authentication, async ({ scope, query }) => service.authentication(await scope(), query));
  bind(router, routes.system, async ({ scope, query }) => service.system(await scope(), query));
  bind(router, routes.session, async ({ scope, query }) => service.session(await scope(), query));
  bind(router, routes.externalApiAccess, async ({ scope, query }) => service.externalApiAccess(await scope(), query));

  // The exports run as background jobs (the job handlers of app.ts) once their filters are known to be
  // valid and within the row limit; their file comes with the notification.
  bind(router, routes.authenticationExport, async ({ ctx, caller, scope, query }) => {
    await service.authenticationExport(await scope(), query);
    return { jobId: await jobQueueOf(context).enqueue('ExportAuthenticationLogs', exportPayload(ctx, routes.authenticationExport), { userId: caller.userId }) };
  });
  bind(router, routes.systemExport, async ({ ctx, caller, scope, query }) => {
    await service.systemExport(await scope(), query);
    return { jobId: await jobQueueOf(context).enqueue('ExportSystemLogs', exportPayload(ctx, routes.systemExport), { userId: caller.userId }) };
  });

  return router;
}
