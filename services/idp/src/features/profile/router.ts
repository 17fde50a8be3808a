import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import type { Mailer } from '@gatehouse/core/mail';
import { profileRoutes as routes } from '@gatehouse/contracts';
import type { Context } from 'koa';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { notWhileActing } from '../identify-as/not-while-acting.js';
import { koaAccountAuth } from './koa-account-auth.js';
import { MyProfileService } from './my-profile.js';
import { requestOf } from './secret-proof.js';
import { ProfileService } from './service.js';


/**
 * `/api/v1/profile/*`: what a signed-in user does for themself, with a token issued to the portal.
 * The token check runs only for the routes bound here (a router's middleware runs when one of its
 * routes matches): the other features under the same prefix authenticate their own.
 */
export function profileRoutes(
  context: AppContext,
  host: ProviderHost,
  mailer: Mailer,
  service = new ProfileService(context, host, mailer),
  me = new MyProfileService(context, host.directory),
): Router {
  const router = new Router();
  router.use(koaAccountAuth(context, host));

  bind(router, routes.get, async ({ ctx }) => me.get(ctx.state.accountId as string));

  // The names, the language and the current company are the user's own choices: a God user signed
  // in as them reads them, never changes them (nothing would tell the user it was not them).
  bind(router, routes.update, notWhileActing(async ({ ctx, body }) => me.update(ctx.state.accountId as string, body)));

  bind(router, routes.tenants, async ({ ctx, query }) => me.companies(ctx.state.accountId as string, query));

  bind(router, routes.setCurrentCompany, notWhileActing(async ({ ctx, body }) => me.chooseCompany(ctx.state.accountId as string, body.tenantId)));

  // The password and the second factor are the user's own: never changed by a God user signed in as them.
  bind(router, routes.resetPassword, notWhileActing(async ({ ctx, params }) => service.requestPasswordReset(ctx.state.accountId as string, params.name, ctx.state.language as string)));

  bind(
    router,
    routes.enrolTotp,
    notWhileActing(async ({ ctx, body }) => {
      const enrolment = await service.enrolTotp(requestOf(ctx), body.password);
      ctx.set('Cache-Control', 'no-store');
      return enrolment;
    }),
  );

  bind(router, routes.confirmTotp, notWhileActing(async ({ ctx, body }) => service.confirmTotp(requestOf(ctx), body.code)));

  bind(router, routes.disableTotp, notWhileActing(async ({ ctx, body }) => service.disableTotp(requestOf(ctx), body.code)));

  return router;
}
