import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { keysRoutes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { KeysService } from './service.js';

/** `/api/v1/keys`: personal access tokens (default sort: name ascending). */
export function keyRoutes(context: AppContext, service = new KeysService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, keysRoutes.list, async ({ caller, query }) => service.list(caller, query));
  bind(router, keysRoutes.all, async ({ query }) => service.all(query));
  bind(router, keysRoutes.applications, async ({ caller }) => service.applications(caller));
  bind(router, keysRoutes.create, async ({ caller, body }) => service.create(caller, body));
  bind(router, keysRoutes.delete, async ({ caller, params }) => service.remove(caller, params.id));
  return router;
}
