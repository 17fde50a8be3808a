import Router from '@koa/router';
import { securityConfigRoutes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import { adminRoutes } from '../../http/route.js';
import { SecurityConfigService } from './service.js';

/** `/securityConfig` (God: the security settings, edited as YAML) and `/policy` (the password policy, for every signed-in user). */
export function securityConfigRouter(context: AppContext, service = new SecurityConfigService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, securityConfigRoutes.list, async ({ query }) => service.list(query));
  bind(router, securityConfigRoutes.get, async ({ params }) => service.get(params.id));
  bind(router, securityConfigRoutes.update, async ({ caller, params, body }) => service.update(caller, params.id, body.body));
  bind(router, securityConfigRoutes.policy, async () => service.policy());
  return router;
}
