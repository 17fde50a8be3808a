import Router from '@koa/router';
import { AppError, type AppContext } from '@gatehouse/core';
import { JOBS_VIEW_PATH, JOBS_VIEW_SESSION_SECONDS, PAGE_SESSION_COOKIE, jobsViewRoutes } from '@gatehouse/contracts';
import { cspNonce, routeKit } from '@gatehouse/core/http';
import type { Context, Middleware } from 'koa';
import { adminRoutes } from '../../http/route.js';
import { jobsViewContentSecurityPolicy, renderJobsPage, renderMessagePage, type PageFrame } from './page.js';
import { JobsViewRefusal, JobsViewService } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/** `POST /api/v1/admin/jobs/dashboard-link`: a bearer call of the console, in the admin router. */
export function jobsViewLinkRoutes(context: AdminContext, service = new JobsViewService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  // The page opens in the console's language, which a new tab's request would not say.
  bind(router, jobsViewRoutes.dashboardLink, async ({ ctx, caller }) => service.link(caller, ctx.state.requestedLanguage as string | undefined));
  return router;
}

/**
 * `GET /api/v1/admin/jobs/dashboard`: a page a browser navigates to, on a cookie session of its
 * own. Mounted before the admin API's bearer authentication, which never sees it; every other
 * method on the path still goes through it.
 */
export function jobsViewPageRoutes(context: AdminContext, service = new JobsViewService(context)): Router {
  const router = new Router();
  // No bearer caller here: the handler checks the code or the session itself.
  const { bind } = routeKit<object>({ extra: () => ({}) });
  router.use(pageAnswers(context));
  bind(router, jobsViewRoutes.dashboard, async ({ ctx, query }) => {
    if (query.code !== undefined) {
      const session = await service.openSession(query.code);
      setSessionCookie(ctx, context, session, JOBS_VIEW_SESSION_SECONDS);
      // The code leaves the address bar and the history at once.
      ctx.status = 303;
      ctx.redirect(JOBS_VIEW_PATH);
      return;
    }
    const viewer = await service.viewer(ctx.cookies.get(sessionCookieName(context), { signed: false }));
    const page = await service.page(query);
    ctx.type = 'html';
    ctx.body = renderJobsPage(pageFrame(ctx, context, viewer.language), page);
  });
  return router;
}

/** `__Secure-` when the product is served over https (the browser then keeps it to https answers). */
function sessionCookieName(context: AppContext): string {
  return isHttps(context) ? `__Secure-${PAGE_SESSION_COOKIE}` : PAGE_SESSION_COOKIE;
}

function isHttps(context: AppContext): boolean {
  return context.config.server.publicUrl.startsWith('https:');
}

/**
 * Written by hand: Koa refuses a Secure cookie on a request it does not see as TLS, which is the
 * case behind a proxy that terminates it. The path keeps the cookie to this page; `__Host-` would
 * require the whole site's path.
 */
function setSessionCookie(ctx: Context, context: AppContext, value: string, maxAge: number): void {
  const attributes = [`${sessionCookieName(context)}=${value}`, `Path=${JOBS_VIEW_PATH}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Strict'];
  if (isHttps(context)) attributes.push('Secure');
  ctx.append('Set-Cookie', attributes.join('; '));
}

function pageFrame(ctx: Context, context: AppContext, language?: string): PageFrame {
  const lng = language ?? (ctx.state.language as string);
  return { language: lng, nonce: ctx.state.jobsViewNonce as string, t: (key, params = {}) => context.i18n.t(key, { lng, ...params }) as string };
}

/**
 * What every answer of the page carries (no caching, no referrer, a strict content policy with
 * this answer's nonce), and its refusals written as pages in the caller's language.
 */
function pageAnswers(context: AppContext): Middleware {
  return async function jobsViewAnswers(ctx, next) {
    const nonce = cspNonce();
    ctx.state.jobsViewNonce = nonce;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Content-Security-Policy', jobsViewContentSecurityPolicy(nonce));
    try {
      await next();
    } catch (error) {
      if (error instanceof JobsViewRefusal) {
        // A session that no longer opens the page is dropped from the browser as well.
        if (error.reason === 'session_ended') setSessionCookie(ctx, context, '', 0);
        const f = pageFrame(ctx, context);
        refusalPage(ctx, f, error.status, f.t(`jobsView.${error.reason}_title`), f.t(`jobsView.${error.reason}`));
        return;
      }
      if (error instanceof AppError && error.status < 500) {
        const f = pageFrame(ctx, context);
        const fields = error.errors.map((field) => `${field.field}: ${f.t(field.code, { field: field.field, ...field.params })}`);
        refusalPage(ctx, f, error.status, f.t('jobsView.invalid_title'), [f.t(error.code, error.params), ...fields].join(' '));
        return;
      }
      throw error;
    }
  };
}

function refusalPage(ctx: Context, f: PageFrame, status: number, title: string, message: string): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = renderMessagePage(f, title, message);
}
