import Router from '@koa/router';
import { logsRoutes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { attachment } from '../../excel/workbook.js';
import { adminRoutes } from '../../http/route.js';
import { LogsService } from './service.js';

/**
 * `/logs/*`: the Logs page's four tabs and the exports of two; the caller is already
 * authenticated. The export paths are fixed, so their order among the routes does not matter.
 */
export function logRoutes(context: AppContext, service = new LogsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const routes = logsRoutes;
  const language = (ctx: Context) => ctx.state.language as string;

  bind(router, routes.authentication, async ({ scope, query }) => service.authentication(await scope(), query));
  bind(router, routes.system, async ({ scope, query }) => service.system(await scope(), query));
  bind(router, routes.session, async ({ scope, query }) => service.session(await scope(), query));
  bind(router, routes.externalApiAccess, async ({ scope, query }) => service.externalApiAccess(await scope(), query));

  bind(router, routes.authenticationExport, async ({ ctx, scope, query }) => {
    const file = await service.exportAuthentication(ctx, await scope(), query, language(ctx));
    attachment(ctx, 'AuthenticationLogs.xlsx');
    ctx.body = file;
  });
  bind(router, routes.systemExport, async ({ ctx, scope, query }) => {
    const file = await service.exportSystem(ctx, await scope(), query, language(ctx));
    attachment(ctx, 'SystemLogs.xlsx');
    ctx.body = file;
  });

  return router;
}
