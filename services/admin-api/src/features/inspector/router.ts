import Router from '@koa/router';
import { inspectorRoutes } from '@gatehouse/contracts';
import { sha256, type AppContext } from '@gatehouse/core';
import { adminRoutes } from '../../http/route.js';
import { findPatOwnerByHash } from '../directory/lookups.js';
import { InspectorService } from './service.js';

/** `POST /inspector`: a pasted token decoded and checked (the token travels in the body, never in a URL or a log). */
export function inspectorRouter(
  context: AppContext,
  service = new InspectorService(context, (token) => findPatOwnerByHash(context.dataSource, sha256(token))),
): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, inspectorRoutes.inspect, async ({ ctx, body }) => {
    ctx.set('Cache-Control', 'no-store');
    return service.inspect(body.token);
  });
  return router;
}
