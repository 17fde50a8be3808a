import Router from '@koa/router';
import { AppError, IDENTITY_APPLICATION_ID, applicationIcon, homeApplications, resolveEffectiveRoles, type AppContext } from '@gatehouse/core';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { koaAccountAuth } from '../profile/koa-account-auth.js';

/** `/api/v1/applications/*` on the identity host: icons, status, and a user's applications. */
export function applicationRoutes(context: AppContext, host: ProviderHost): Router {
  const router = new Router({ prefix: '/api/v1/applications' });

  // Icons are public (an <img> sends no bearer token) and cached; the SVG default is sandboxed.
  router.get('/icon/:appId', async (ctx) => {
    const icon = await applicationIcon(context, ctx.params.appId!);
    ctx.type = icon.type;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    if (icon.modified) ctx.lastModified = icon.modified;
    ctx.body = icon.body;
  });

  /** 'Running', 'Maintenance' or 'Stopped', as plain text; the SPAs check it at start. */
  router.get('/status/:name', async (ctx) => {
    const [row] = await context.dataSource.query('SELECT status FROM applications WHERE name = $1 OR id = $1 LIMIT 1', [ctx.params.name]);
    if (!row) throw new AppError('errors.not_found', 404);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/plain';
    ctx.body = row.status;
  });

  /** A user's accessible applications: the user themself, or an Administrator; from the portal or the admin console only. */
  router.get('/info/:userId', koaAccountAuth(context, host, [context.config.oidc.portalClientId, context.config.oidc.adminClientId]), async (ctx) => {
    const target = ctx.params.userId!;
    const caller = ctx.state.accountId as string;
    if (caller !== target) {
      const roles = await resolveEffectiveRoles(context.dataSource, caller, { applicationId: IDENTITY_APPLICATION_ID });
      if (!roles.some((r) => r.roleName === 'Administrator')) throw new AppError('errors.forbidden', 403);
    }
    if (!/^[0-9a-f-]{36}$/i.test(target)) throw new AppError('errors.not_found', 404);
    const items = (await homeApplications(context, target)).filter((app) => app.hasAccess);
    ctx.body = { items, count: items.length };
  });

  return router;
}
