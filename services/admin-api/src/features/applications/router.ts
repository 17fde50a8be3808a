import Router from '@koa/router';
import { applicationIcon, homeApplications, type AppContext } from '@gatehouse/core';
import { callerOf } from '../../auth/koa-admin-auth.js';
import { requireRole } from '../../auth/permissions.js';

export interface ApplicationRoutesOptions {
  /** Id of the client portal application, where customers without the Identity application are sent. */
  clientPortalAppId?: string | null;
}

/** `/api/v1/admin/applications/*`. */
export function applicationRoutes(context: AppContext, options: ApplicationRoutesOptions = {}): Router {
  const router = new Router({ prefix: '/applications' });

  /** The home launcher: the caller's applications with access and favourite flags. */
  router.get('/homeInfo', requireRole('applications.homeInfo'), async (ctx) => {
    const items = await homeApplications(context, callerOf(ctx).userId);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { applications: { items, count: items.length }, clientPortalAppId: options.clientPortalAppId ?? null };
  });

  /** The same icon as the public path, for the console (fetched with its token). */
  router.get('/icon/:id', requireRole('applications.icon'), async (ctx) => {
    const icon = await applicationIcon(context, ctx.params.id!);
    ctx.type = icon.type;
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.body = icon.body;
  });

  return router;
}
