import Router from '@koa/router';
import { usersRoutes } from '@gatehouse/contracts';
import type { Language } from '@gatehouse/core';
import type { Mailer } from '@gatehouse/core/mail';
import type { Context } from 'koa';
import { adminRoutes } from '../../http/route.js';
import { UserFactorsService } from './factors.js';
import { UserRolesService } from './roles/service.js';
import { UsersService } from './service.js';
import type { AdminContext } from '../../admin-context.js';

export interface UserRoutesOptions {
  mailer?: Mailer;
  service?: UsersService;
  roles?: UserRolesService;
  factors?: UserFactorsService;
}

/** The users: their accounts, invitations and passwords, sign-in factors, groups, and role access. */
export function userRoutes(context: AdminContext, options: UserRoutesOptions = {}): Router {
  const service = options.service ?? new UsersService(context, options.mailer ?? context.mailer);
  const roles = options.roles ?? new UserRolesService(context);
  const factors = options.factors ?? new UserFactorsService(context, options.mailer ?? context.mailer);
  const router = new Router();
  const { bind } = adminRoutes(context);
  const phrase = (ctx: Context, key: string) => context.i18n.t(key, { lng: ctx.state.language as string }) as string;

  bind(router, usersRoutes.list, async ({ scope, query }) => service.list(await scope(), query));
  bind(router, usersRoutes.create, async ({ ctx, caller, scope, body }) => service.create(caller, await scope(), body, ctx.state.language as Language));
  bind(router, usersRoutes.checkPermissions, async ({ scope, params }) => roles.checkPermissions(await scope(), params.id));
  bind(router, usersRoutes.invite, async ({ ctx, caller, scope, params }) => {
    await service.invite(caller, await scope(), params.id);
    return { success: true as const, message: phrase(ctx, 'users.invitation_sent') };
  });
  bind(router, usersRoutes.changePassword, async ({ ctx, caller, scope, params, body }) => {
    await service.changePassword(caller, await scope(), params.userId, body, ctx.state.language as Language);
    return { success: true as const, message: phrase(ctx, 'users.password_changed') };
  });
  bind(router, usersRoutes.get, async ({ scope, params }) => service.get(await scope(), params.id));
  bind(router, usersRoutes.update, async ({ caller, scope, params, body }) => service.update(caller, await scope(), params.id, body));
  bind(router, usersRoutes.delete, async ({ caller, scope, params }) => service.remove(caller, await scope(), params.id));
  bind(router, usersRoutes.groups, async ({ scope, params }) => service.groups(await scope(), params.id));
  bind(router, usersRoutes.factors, async ({ caller, scope, params }) => factors.summary(caller, await scope(), params.id));
  bind(router, usersRoutes.resetFactors, async ({ caller, scope, params, body }) => factors.reset(caller, await scope(), params.id, body.kinds));
  bind(router, usersRoutes.tenants, async ({ scope, params }) => roles.tenants(await scope(), params.id));
  bind(router, usersRoutes.roles, async ({ scope, params }) => roles.roles(await scope(), params.id));
  bind(router, usersRoutes.grantRoles, async ({ caller, scope, params, body }) =>
    roles.grantRoles(caller, await scope(), params.id, params.applicationId, body),
  );
  bind(router, usersRoutes.revokeRoles, async ({ caller, scope, params, query }) =>
    roles.revokeRoles(caller, await scope(), params.id, params.applicationId, query),
  );
  return router;
}
