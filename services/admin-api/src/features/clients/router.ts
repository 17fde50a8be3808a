import Router from '@koa/router';
import { clientsRoutes } from '@gatehouse/contracts';
import type { Mailer } from '@gatehouse/core/mail';
import { adminRoutes } from '../../http/route.js';
import { ClientsService } from './service.js';
import type { AdminContext } from '../../admin-context.js';

export interface ClientRoutesOptions {
  mailer?: Mailer;
}

/** My Clients (the portal's consultants): the tenant selector, the tenant's users, new users pending approval. */
export function clientRoutes(context: AdminContext, options: ClientRoutesOptions = {}): Router {
  const service = new ClientsService(context, options.mailer ?? context.mailer);
  const router = new Router();
  const { bind } = adminRoutes(context);

  bind(router, clientsRoutes.areas, () => service.areas());
  bind(router, clientsRoutes.tenants, ({ caller, query }) => service.tenants(caller, query));
  bind(router, clientsRoutes.users, ({ caller, params, query }) => service.list(caller, params.tenantId, query));
  bind(router, clientsRoutes.create, ({ caller, params, body }) => service.create(caller, params.tenantId, body));
  bind(router, clientsRoutes.update, ({ caller, params, body }) => service.update(caller, params.tenantId, params.id, body));
  bind(router, clientsRoutes.invite, async ({ ctx, caller, params }) => {
    await service.invite(caller, params.tenantId, params.id);
    return { success: true as const, message: context.i18n.t('users.invitation_sent', { lng: ctx.state.language as string }) as string };
  });
  return router;
}
