import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import type { Mailer } from '@gatehouse/core/mail';
import { rightsRoutes as routes } from '@gatehouse/contracts';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { notWhileActing } from '../identify-as/not-while-acting.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';
import { rightsFormReader } from './form-upload.js';
import { RightsService } from './service.js';

/** `POST /api/v1/profile/excerciseRights`: a signed-in user exercises their data-protection rights, with a token issued to the portal. */
export function exerciseRightsRoutes(context: AppContext, host: ProviderHost, mailer: Mailer, service = new RightsService(context, mailer)): Router {
  const router = new Router();
  const readForm = rightsFormReader();
  // On this route's path only: the caller is known before a byte of the upload is read.
  router.use(routes.exerciseRights.path, koaAccountAuth(context, host));

  // A request to access or erase the user's data is the user's own: never sent by a God user signed in as them.
  bind(
    router,
    routes.exerciseRights,
    notWhileActing(async ({ ctx }) => {
      const accountId = ctx.state.accountId as string;
      // Counted before the upload is read: a user past the limit costs no parsing.
      await service.assertMayRequest(accountId);
      return service.submit(accountId, await readForm(ctx));
    }),
  );

  return router;
}
