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

  bind(router, applicationsRoutes.list, async ({ caller, query }) => service.list(caller, query));
  // The answers that may carry a shared secret are never stored by a cache on the way.
  bind(router, applicationsRoutes.create, async ({ caller, body, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return service.create(caller, body);
  });
  bind(router, applicationsRoutes.get, async ({ caller, params }) => service.get(caller, params.id));
  bind(router, applicationsRoutes.update, async ({ caller, params, body, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return service.update(caller, params.id, body);
  });
  bind(router, applicationsRoutes.delete, async ({ caller, params }) => service.remove(caller, params.id));
  bind(router, applicationsRoutes.regenerateSecret, async ({ caller, params, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return service.regenerateSecret(caller, params.id);
  });
  bind(router, applicationsRoutes.addOwner, async ({ caller, params, body }) => service.addOwner(caller, params.id, body.userId));
  bind(router, applicationsRoutes.removeOwner, async ({ caller, params }) => service.removeOwner(caller, params.id, params.userId));
  // After the fixed second segments (owners, secret, and the other features' users, permissions…).
  bind(router, applicationsRoutes.setStatus, async ({ caller, params }) => service.setStatus(caller, params.id, params.status));

  return router;
}
