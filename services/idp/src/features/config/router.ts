import Router from '@koa/router';
import { securitySettings, type AppContext } from '@gatehouse/core';
import { configRoutes as routes } from '@gatehouse/contracts';
import { bind } from '../../http/route.js';
import { publicConfigOf } from './public-config.js';

/**
 * `GET /api/v1/online` and `GET /api/v1/config`: what the SPAs read before anything else, so
 * both are public and carry nothing secret.
 */
export function configRoutes(context: AppContext): Router {
  const router = new Router();
  bind(router, routes.online, async ({ ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return { online: true } as const;
  });
  bind(router, routes.get, async ({ ctx }) => {
    ctx.set('Cache-Control', 'no-cache');
    return publicConfigOf(context.config, await securitySettings(context).get());
  });
  return router;
}
