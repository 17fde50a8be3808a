import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { portalApplicationsRoutes as routes } from '@gatehouse/contracts';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';
import { ApplicationsService } from './service.js';

/** `/api/v1/applications/*` on the identity host: icons, status, and a user's applications. */
export function applicationRoutes(context: AppContext, host: ProviderHost, service = new ApplicationsService(context)): Router {
  const router = new Router();

  // Icons are public (an <img> sends no bearer token) and cached; the SVG default is sandboxed.
  bind(router, routes.icon, async ({ params, ctx }) => {
    const icon = await service.icon(params.appId);
    ctx.type = icon.type;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    if (icon.modified) ctx.lastModified = icon.modified;
    ctx.body = icon.body;
  });

  // The SPAs check it at start.
  bind(router, routes.status, async ({ params, ctx }) => {
    const status = await service.status(params.name);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/plain';
    ctx.body = status;
  });

  // From the portal or the admin console only.
  const { portalClientId, adminClientId } = context.config.oidc;
  router.use(routes.info.path, koaAccountAuth(context, host, [portalClientId, adminClientId]));
  bind(router, routes.info, async ({ params, ctx }) => service.userApplications(ctx.state.accountId as string, params.userId));

  return router;
}
