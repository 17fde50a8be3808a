import Router from '@koa/router';
import { applicationIcon, homeApplications, likePattern, parseInput, parseListQuery, type AppContext } from '@gatehouse/core';
import { z } from 'zod';
import { callerOf } from '../../auth/koa-admin-auth.js';
import { requireRole } from '../../auth/permissions.js';
import { listTotal } from '../../list-total.js';

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

  /**
   * The roles of every application (or of one), for role pickers: default sort application then
   * role name. Up to 10,000 at once (the spec's user role list limit).
   */
  router.get('/approles', requireRole('applications.roles'), async (ctx) => {
    const query = parseListQuery(ctx.query, {
      sortable: { name: 'r.name', applicationName: 'app.display_name, r.name' },
      defaultOrder: 'applicationName asc',
      maxTop: 10_000,
    });
    const { applicationId } = parseInput(z.object({ applicationId: z.string().min(1).max(64).optional() }), {
      applicationId: ctx.query.applicationId,
    });
    const where = `($1::text IS NULL OR r.application_id = $1) AND ($2::text IS NULL OR r.name ILIKE $2 OR app.display_name ILIKE $2)`;
    const filters = [applicationId ?? null, query.search ? likePattern(query.search) : null];
    const rows: Array<{ id: string; name: string; description: string | null; by_hierarchy: boolean; application_id: string; application_name: string; total: string }> =
      await context.dataSource.query(
        `SELECT r.id, r.name, r.description, r.by_hierarchy, r.application_id, app.display_name AS application_name, count(*) OVER () AS total
           FROM roles r JOIN applications app ON app.id = r.application_id
          WHERE ${where}
          ORDER BY ${query.orderBy}, r.id
          LIMIT $3 OFFSET $4`,
        [...filters, query.top, query.skip],
      );
    const count = await listTotal(rows, query.skip, async () => {
      const [row] = await context.dataSource.query(`SELECT count(*) FROM roles r JOIN applications app ON app.id = r.application_id WHERE ${where}`, filters);
      return Number(row.count);
    });
    ctx.body = {
      items: rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        byHierarchy: r.by_hierarchy,
        applicationId: r.application_id,
        applicationName: r.application_name,
      })),
      count,
    };
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
