import Router from '@koa/router';
import { AppError, type AppContext } from '@gatehouse/core';
import { identifyAsRoutes as routes } from '@gatehouse/contracts';
import type { Context } from 'koa';
import { bind } from '../../http/route.js';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { loginResponse } from '../account/login-response.js';
import { outcomePage } from '../external-login/pages.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';
import { IdentifyAsSessions } from './service.js';

/** The start is a browser navigation: a refusal or a failure ends on a page saying why, never JSON. */
function presentFailure(context: AppContext, ctx: Context, error: unknown): void {
  const refusal = error instanceof AppError && error.expose ? error : undefined;
  if (!refusal) context.logger.error({ err: error, requestId: ctx.state.requestId }, 'signing in as another user failed unexpectedly');
  const t = (key: string, params: Record<string, unknown> = {}) => context.i18n.t(key, { lng: ctx.state.language, ...params }) as string;
  ctx.status = refusal?.status ?? 500;
  ctx.type = 'html';
  ctx.body = outcomePage({
    language: ctx.state.language,
    title: t('identifyAs.title'),
    message: refusal ? t(refusal.code, refusal.params) : t('errors.internal', { requestId: ctx.state.requestId }),
    home: { url: '/', label: t('identifyAs.back_home') },
  });
}

/**
 * `GET /api/v1/account/identifyAs/start?code=…`: the God user's browser, sent by the console,
 * becomes signed in as the user and goes on to the portal (303). `POST …/identifyAs/end`: the
 * portal ends it, with its token of that session.
 */
export function identifyAsRoutes(context: AppContext, host: ProviderHost, sessions = new IdentifyAsSessions(context, host)): Router {
  const router = new Router();
  router.use(routes.end.path, koaAccountAuth(context, host));

  bind(router, routes.start, async ({ ctx, query }) => {
    ctx.set('Cache-Control', 'no-store');
    // The URL carries the one-time code: no page or redirect of this answer may pass it on.
    ctx.set('Referrer-Policy', 'no-referrer');
    try {
      const next = await sessions.start(ctx, query.code);
      ctx.redirect(next);
      ctx.status = 303;
    } catch (error) {
      presentFailure(context, ctx, error);
    }
  });

  bind(router, routes.end, async ({ ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    return loginResponse({ success: true, redirectTo: await sessions.end(ctx.state.sessionUid as string | undefined) });
  });

  return router;
}
