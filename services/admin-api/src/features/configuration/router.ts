import Router from '@koa/router';
import { CONFIGURATION_EXPORT_MEDIA_TYPE, configurationRoutes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import { adminRoutes } from '../../http/route.js';
import { ConfigurationService } from './service.js';

/** `GET /api/v1/admin/configuration/export` (God): the configuration as a bootstrap file to download. */
export function configurationRouter(context: AppContext, service = new ConfigurationService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, configurationRoutes.export, async ({ ctx, caller }) => {
    const file = await service.export(caller);
    ctx.attachment(file.fileName);
    ctx.type = CONFIGURATION_EXPORT_MEDIA_TYPE;
    // It names every application and setting of the deployment: no cache on the way keeps it.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = file.yaml;
  });
  return router;
}
