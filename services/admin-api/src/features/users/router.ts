import Router from '@koa/router';
import { Mailer, parseInput, parseListQuery, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { callerOf } from '../../auth/koa-admin-auth.js';
import { requireRole } from '../../auth/permissions.js';
import { callerScope } from '../../auth/scope.js';
import { USER_LIST_DEFAULT_ORDER, USER_LIST_SORTABLE } from './repository.js';
import {
  CHANGE_PASSWORD_MESSAGES,
  NEW_USER_MESSAGES,
  UPDATE_USER_MESSAGES,
  applicationAccessSchema,
  changePasswordSchema,
  createdUserSchema,
  grantRolesSchema,
  listFilterSchema,
  messageResultSchema,
  newUserSchema,
  parseBody,
  pathApplicationId,
  pathId,
  permissionCheckSchema,
  rejectReadOnlyFields,
  revokeRolesQuerySchema,
  updateUserSchema,
  userDetailSchema,
  userGroupsSchema,
  userListSchema,
  userRolesSchema,
  userTenantsSchema,
} from './schema.js';
import { UsersService } from './service.js';

const mailers = new WeakMap<AppContext, Mailer>();

/**
 * The context's mailer for this service. Its retry worker is not started: mails go to the shared
 * outbox and are sent at once when SMTP is configured, and the provider's worker retries failures.
 */
export function adminMailer(context: AppContext): Mailer {
  let mailer = mailers.get(context);
  if (!mailer) {
    mailer = new Mailer(context);
    mailers.set(context, mailer);
  }
  return mailer;
}

export interface UserRoutesOptions {
  mailer?: Mailer;
  service?: UsersService;
}

/** `/users/*` under the admin API prefix; the caller is already authenticated. */
export function userRoutes(context: AppContext, options: UserRoutesOptions = {}): Router {
  const service = options.service ?? new UsersService(context, options.mailer ?? adminMailer(context));
  const router = new Router({ prefix: '/users' });
  const scopeOf = (ctx: Context) => callerScope(context, ctx);
  const phrase = (ctx: Context, key: string) => context.i18n.t(key, { lng: ctx.state.language as string }) as string;

  router.get('/', requireRole('users.list'), async (ctx) => {
    const query = parseListQuery(ctx.query, { sortable: USER_LIST_SORTABLE, defaultOrder: USER_LIST_DEFAULT_ORDER });
    const filter = parseInput(listFilterSchema, { locked: ctx.query.locked, area: ctx.query.area });
    const result = await service.list(await scopeOf(ctx), query, {
      ...(filter.locked ? { locked: filter.locked === 'true' } : {}),
      ...(filter.area ? { areaId: filter.area.toLowerCase() } : {}),
    });
    ctx.body = userListSchema.parse(result);
  });

  router.post('/', requireRole('users.create'), async (ctx) => {
    const input = parseBody(newUserSchema, ctx.request.body, NEW_USER_MESSAGES);
    const user = await service.create(callerOf(ctx), await scopeOf(ctx), input);
    ctx.status = 201;
    ctx.body = createdUserSchema.parse(user);
  });

  // Fixed paths before `/:id`.
  router.get('/check/permissions/:id', requireRole('users.checkPermissions'), async (ctx) => {
    ctx.body = permissionCheckSchema.parse(await service.checkPermissions(await scopeOf(ctx), pathId(ctx.params.id)));
  });

  router.post('/inviteUser/:id', requireRole('users.invite'), async (ctx) => {
    await service.invite(callerOf(ctx), await scopeOf(ctx), pathId(ctx.params.id));
    ctx.body = messageResultSchema.parse({ success: true, message: phrase(ctx, 'users.invitation_sent') });
  });

  router.post('/change-password/:userId', requireRole('users.changePassword'), async (ctx) => {
    const id = pathId(ctx.params.userId);
    const input = parseBody(changePasswordSchema, ctx.request.body, CHANGE_PASSWORD_MESSAGES);
    await service.changePassword(callerOf(ctx), await scopeOf(ctx), id, input);
    ctx.body = messageResultSchema.parse({ success: true, message: phrase(ctx, 'users.password_changed') });
  });

  router.get('/:id', requireRole('users.get'), async (ctx) => {
    ctx.body = userDetailSchema.parse(await service.get(await scopeOf(ctx), pathId(ctx.params.id)));
  });

  router.put('/:id', requireRole('users.update'), async (ctx) => {
    const id = pathId(ctx.params.id);
    rejectReadOnlyFields(ctx.request.body);
    const input = parseBody(updateUserSchema, ctx.request.body, UPDATE_USER_MESSAGES);
    ctx.body = userDetailSchema.parse(await service.update(callerOf(ctx), await scopeOf(ctx), id, input));
  });

  router.delete('/:id', requireRole('users.delete'), async (ctx) => {
    await service.remove(callerOf(ctx), await scopeOf(ctx), pathId(ctx.params.id));
    ctx.status = 204;
  });

  router.get('/:id/groups', requireRole('users.groups'), async (ctx) => {
    ctx.body = userGroupsSchema.parse(await service.groups(await scopeOf(ctx), pathId(ctx.params.id)));
  });

  router.get('/:id/tenants', requireRole('users.tenants'), async (ctx) => {
    ctx.body = userTenantsSchema.parse(await service.tenants(await scopeOf(ctx), pathId(ctx.params.id)));
  });

  router.get('/:id/roles', requireRole('users.roles'), async (ctx) => {
    ctx.body = userRolesSchema.parse(await service.roles(await scopeOf(ctx), pathId(ctx.params.id)));
  });

  router.put('/:id/roles/:applicationId', requireRole('users.grantRoles'), async (ctx) => {
    const id = pathId(ctx.params.id);
    const applicationId = pathApplicationId(ctx.params.applicationId);
    const body = parseInput(grantRolesSchema, ctx.request.body ?? {});
    ctx.body = applicationAccessSchema.parse(await service.grantRoles(callerOf(ctx), await scopeOf(ctx), id, applicationId, body));
  });

  router.delete('/:id/roles/:applicationId', requireRole('users.revokeRoles'), async (ctx) => {
    const id = pathId(ctx.params.id);
    const applicationId = pathApplicationId(ctx.params.applicationId);
    const query = parseInput(revokeRolesQuerySchema, { roleId: ctx.query.roleId, tenantId: ctx.query.tenantId });
    ctx.body = applicationAccessSchema.parse(await service.revokeRoles(callerOf(ctx), await scopeOf(ctx), id, applicationId, query));
  });

  return router;
}
