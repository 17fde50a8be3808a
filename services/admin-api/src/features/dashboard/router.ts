import Router from '@koa/router';
import { GLOBAL_TENANT_ID, type AppContext } from '@gatehouse/core';
import { requireRole } from '../../auth/permissions.js';

/** The dashboard's count tiles (spec: Dashboard summary). */
export interface DashboardSummary {
  usersCount: number;
  groupsCount: number;
  appsCount: number;
  areasCount: number;
  tenantsCount: number;
}

/** `/dashboard/*` under the admin API prefix. */
export function dashboardRoutes(context: AppContext): Router {
  const router = new Router({ prefix: '/dashboard' });

  router.get('/base', requireRole('dashboard.base'), async (ctx) => {
    // One round trip; the Global tenant is a technical row, not a tenant anyone created.
    const [row] = await context.dataSource.query(
      `SELECT (SELECT count(*) FROM users) AS users,
              (SELECT count(*) FROM groups) AS groups,
              (SELECT count(*) FROM applications) AS apps,
              (SELECT count(*) FROM areas) AS areas,
              (SELECT count(*) FROM tenants WHERE id <> $1) AS tenants`,
      [GLOBAL_TENANT_ID],
    );
    const summary: DashboardSummary = {
      usersCount: Number(row.users),
      groupsCount: Number(row.groups),
      appsCount: Number(row.apps),
      areasCount: Number(row.areas),
      tenantsCount: Number(row.tenants),
    };
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = summary;
  });

  return router;
}
