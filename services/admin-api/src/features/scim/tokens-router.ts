import Router from '@koa/router';
import { scimTokensRoutes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { ScimTokensService } from './tokens.js';
import type { AdminContext } from '../../admin-context.js';

/** `/api/v1/admin/applications/{id}/scimTokens`: administrators issue and revoke SCIM tokens. */
export function scimTokenRoutes(context: AdminContext, service = new ScimTokensService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, scimTokensRoutes.list, ({ params }) => service.list(params.id));
  // The answer carries the token's value: never stored by a cache on the way.
  bind(router, scimTokensRoutes.create, ({ caller, params, body, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return service.create(caller, params.id, body);
  });
  bind(router, scimTokensRoutes.delete, ({ caller, params }) => service.remove(caller, params.id, params.tokenId));
  return router;
}
