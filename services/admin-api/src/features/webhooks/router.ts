import Router from '@koa/router';
import { webhooksRoutes } from '@gatehouse/contracts';
import type { AdminContext } from '../../admin-context.js';
import { adminRoutes } from '../../http/route.js';
import { WebhooksService } from './service.js';

/** `/api/v1/admin/webhooks/*`. */
export function webhookRoutes(context: AdminContext, service = new WebhooksService(context, () => context.webhooks.deliverer?.wake())): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, webhooksRoutes.list, () => service.list());
  // The answers that carry a secret are never stored by a cache on the way.
  bind(router, webhooksRoutes.create, ({ caller, body, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return service.create(caller, body);
  });
  bind(router, webhooksRoutes.get, ({ params }) => service.get(params.id));
  bind(router, webhooksRoutes.update, ({ caller, params, body }) => service.update(caller, params.id, body));
  bind(router, webhooksRoutes.delete, ({ caller, params }) => service.remove(caller, params.id));
  bind(router, webhooksRoutes.rotateSecret, ({ caller, params, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return service.rotateSecret(caller, params.id);
  });
  bind(router, webhooksRoutes.deliveries, ({ params, query }) => service.deliveries(params.id, query));
  bind(router, webhooksRoutes.resend, ({ caller, params }) => service.resend(caller, params.id, params.deliveryId));
  return router;
}
