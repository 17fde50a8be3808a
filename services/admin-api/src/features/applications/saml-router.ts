import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { samlApplicationsRoutes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { SamlApplicationsService } from './saml-service.js';

/**
 * `/api/v1/admin/applications/{id}/saml` and `/applications/samlMetadata`: mounted before the
 * applications' own routes, whose `PUT /applications/{id}/{status}` would take `saml` for a status.
 */
export function samlApplicationRoutes(context: AppContext, service = new SamlApplicationsService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);

  bind(router, samlApplicationsRoutes.readSamlMetadata, async ({ body, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return service.readMetadata(body);
  });
  bind(router, samlApplicationsRoutes.getSaml, async ({ caller, params }) => service.get(caller, params.id));
  bind(router, samlApplicationsRoutes.setSaml, async ({ caller, params, body }) => service.set(caller, params.id, body));

  return router;
}
