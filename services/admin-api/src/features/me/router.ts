import Router from '@koa/router';
import { AppError, type AppContext } from '@gatehouse/core';
import { callerOf } from '../../auth/koa-admin-auth.js';
import { requireRole } from '../../auth/permissions.js';

/**
 * `GET /me`: who the console is talking to and the roles the API will judge them by (those of the
 * token), so the console decides entry and menus on exactly what the server enforces.
 */
export function meRoutes(context: AppContext): Router {
  const router = new Router();

  router.get('/me', requireRole('me.get'), async (ctx) => {
    const caller = callerOf(ctx);
    const [user]: Array<{ id: string; user_name: string; first_name: string | null; last_name: string | null; email: string; language: string }> =
      await context.dataSource.query('SELECT id, user_name, first_name, last_name, email, language FROM users WHERE id = $1', [caller.userId]);
    // A token outliving its account (deleted since) names nobody.
    if (!user) throw new AppError('errors.unauthorized', 401);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = {
      id: user.id,
      userName: user.user_name,
      firstName: user.first_name,
      lastName: user.last_name,
      email: user.email,
      language: user.language,
      roles: [...new Set(caller.roles)].sort(),
    };
  });

  return router;
}
