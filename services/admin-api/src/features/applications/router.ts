import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { applicationsRoutes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { ApplicationsService, type ApplicationsServiceOptions } from './service.js';

export type ApplicationRoutesOptions = ApplicationsServiceOptions;

/** `/api/v1/admin/applications/*`. */
export function applicationRoutes(context: AppContext, options: ApplicationRoutesOptions = {}, service = new ApplicationsService(context, options)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);

  bind(router, applicationsRoutes.homeInfo, async ({ caller, ctx }) => {
    const info = await service.homeInfo(caller);
    ctx.set('Cache-Control', 'private, no-store');
    return info;
  });

  bind(router, applicationsRoutes.roles, async ({ query }) => service.roles(query));

  /** The same icon as the public path, for the console (fetched with its token). */
  bind(router, applicationsRoutes.icon, async ({ params, ctx }) => {
    const icon = await service.icon(params.id);
    ctx.type = icon.type;
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.body = icon.body;
  });

  return router;
}
