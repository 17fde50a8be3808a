import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import type { Mailer } from '@gatehouse/core/mail';
import { securityRoutes as routes } from '@gatehouse/contracts';
import type { Context } from 'koa';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { notWhileActing } from '../identify-as/not-while-acting.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';
import { requestOf } from '../profile/secret-proof.js';
import { SecurityService } from './service.js';
import { UserSessionsService } from './sessions-service.js';


/**
 * `/api/v1/profile/*` "My security" with a token issued to the portal: the factors at a glance,
 * confirming the password, recovery codes, and the sessions. A God user signed in as the user
 * reads them, never changes them.
 */
export function securityRoutes(
  context: AppContext,
  host: ProviderHost,
  mailer: Mailer,
  service = new SecurityService(context, host, mailer),
  sessions = new UserSessionsService(context, host),
): Router {
  const router = new Router();
  router.use(koaAccountAuth(context, host));

  bind(router, routes.get, async ({ ctx }) => service.overview(requestOf(ctx)));

  bind(router, routes.reauthenticate, notWhileActing(async ({ ctx, body }) => service.reauthenticate(requestOf(ctx), body.password)));

  bind(
    router,
    routes.generateRecoveryCodes,
    notWhileActing(async ({ ctx }) => {
      const codes = await service.generateRecoveryCodes(requestOf(ctx));
      ctx.set('Cache-Control', 'no-store');
      return codes;
    }),
  );

  bind(router, routes.sessions, async ({ ctx }) => sessions.list(requestOf(ctx)));

  bind(router, routes.endSession, notWhileActing(async ({ ctx, params }) => sessions.end(requestOf(ctx), params.id)));

  bind(router, routes.endOtherSessions, notWhileActing(async ({ ctx }) => sessions.endOthers(requestOf(ctx))));

  return router;
}
