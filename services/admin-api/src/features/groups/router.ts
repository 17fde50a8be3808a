import Router, { type RouterContext } from '@koa/router';
import { parseInput, parseListQuery, type AppContext } from '@gatehouse/core';
import { callerOf, type Caller } from '../../auth/koa-admin-auth.js';
import { requireRole } from '../../auth/permissions.js';
import { callerScope, type CallerScope } from '../../auth/scope.js';
import {
  ADD_MEMBER_MESSAGES,
  ADD_TENANT_ROLES_MESSAGES,
  ADD_USER_TO_GROUP_MESSAGES,
  GROUP_BODY_MESSAGES,
  UPDATE_MEMBER_MESSAGES,
  addMemberBodySchema,
  addTenantRolesBodySchema,
  addUserToGroupBodySchema,
  groupBodySchema,
  groupListFilterSchema,
  groupListSchema,
  groupSchema,
  memberListSchema,
  memberSchema,
  parseBody,
  pathId,
  tenantRolesListSchema,
  tenantRolesSchema,
  updateMemberBodySchema,
} from './schema.js';
import { GroupsService } from './service.js';

/** The spec's lookups ask for up to 10,000 groups at once. */
const GROUP_LIST_MAX_TOP = 10_000;

/** What a handler does for the caller, with the path and body in `ctx`: a GroupsService call. */
type Work<T> = (ctx: RouterContext, caller: Caller, scope: CallerScope) => Promise<T>;

/** A response contract: what the service returns, reduced to what the API answers. */
type ResponseSchema = { parse(value: unknown): unknown };

/**
 * What every groups handler does around its service call: find who asks (the caller and their
 * scope), then answer the result through its response schema, 200 (`ok`) or 201 (`created`), or
 * answer nothing (`noContent`, 204).
 */
function handlers(context: AppContext) {
  const run = async <T>(ctx: RouterContext, work: Work<T>) => work(ctx, callerOf(ctx), await callerScope(context, ctx));
  const answer = (status: number, schema: ResponseSchema, work: Work<unknown>) => async (ctx: RouterContext) => {
    const result = await run(ctx, work);
    ctx.status = status;
    ctx.body = schema.parse(result);
  };
  return {
    ok: (schema: ResponseSchema, work: Work<unknown>) => answer(200, schema, work),
    created: (schema: ResponseSchema, work: Work<unknown>) => answer(201, schema, work),
    noContent: (work: Work<unknown>) => async (ctx: RouterContext) => {
      await run(ctx, work);
      ctx.status = 204;
    },
  };
}

/** `/groups/*` under the admin API prefix; the caller is already authenticated. */
export function groupRoutes(context: AppContext, service = new GroupsService(context)): Router {
  const router = new Router({ prefix: '/groups' });
  const { ok, created, noContent } = handlers(context);

  router.get(
    '/',
    requireRole('groups.list'),
    ok(groupListSchema, (ctx, caller, scope) => {
      const query = parseListQuery(ctx.query, {
        sortable: { name: 'g.name', description: 'g.description', areaName: 'a.name' },
        defaultOrder: 'name asc',
        maxTop: GROUP_LIST_MAX_TOP,
      });
      const { area } = parseInput(groupListFilterSchema, ctx.query);
      return service.list(caller, scope, query, area);
    }),
  );

  router.post(
    '/',
    requireRole('groups.create'),
    created(groupSchema, (ctx, caller, scope) => service.create(caller, scope, parseBody(groupBodySchema, ctx.request.body, GROUP_BODY_MESSAGES))),
  );

  router.get('/:id', requireRole('groups.get'), ok(groupSchema, (ctx, caller, scope) => service.get(caller, scope, pathId(ctx.params.id))));

  router.put(
    '/:id',
    requireRole('groups.update'),
    ok(groupSchema, (ctx, caller, scope) => {
      const id = pathId(ctx.params.id);
      return service.update(caller, scope, id, parseBody(groupBodySchema, ctx.request.body, GROUP_BODY_MESSAGES));
    }),
  );

  router.delete('/:id', requireRole('groups.delete'), noContent((ctx, caller, scope) => service.remove(caller, scope, pathId(ctx.params.id))));

  router.get(
    '/:id/users',
    requireRole('groups.members'),
    ok(memberListSchema, (ctx, caller, scope) => {
      const id = pathId(ctx.params.id);
      const query = parseListQuery(ctx.query, {
        sortable: { userName: 'u.user_name', email: 'u.email', permission: 'gm.permission' },
        defaultOrder: 'userName asc',
      });
      return service.members(caller, scope, id, query);
    }),
  );

  router.post(
    '/:id/users',
    requireRole('groups.addMember'),
    created(memberSchema, (ctx, caller, scope) => {
      const id = pathId(ctx.params.id);
      const { userId, permission } = parseBody(addMemberBodySchema, ctx.request.body, ADD_MEMBER_MESSAGES);
      return service.addMember(caller, scope, id, userId.toLowerCase(), permission);
    }),
  );

  router.put(
    '/:id/users/:userId',
    requireRole('groups.updateMember'),
    ok(memberSchema, (ctx, caller, scope) => {
      const [id, userId] = [pathId(ctx.params.id), pathId(ctx.params.userId)];
      const { permission } = parseBody(updateMemberBodySchema, ctx.request.body, UPDATE_MEMBER_MESSAGES);
      return service.updateMember(caller, scope, id, userId, permission);
    }),
  );

  router.delete(
    '/:id/users/:userId',
    requireRole('groups.removeMember'),
    noContent((ctx, caller, scope) => service.removeMember(caller, scope, pathId(ctx.params.id), pathId(ctx.params.userId))),
  );

  router.get('/:id/roles', requireRole('groups.tenants'), ok(tenantRolesListSchema, (ctx, caller, scope) => service.tenants(caller, scope, pathId(ctx.params.id))));

  router.post('/:id/roles', requireRole('groups.addTenantRoles'), async (ctx) => {
    const id = pathId(ctx.params.id);
    const body = parseBody(addTenantRolesBodySchema, ctx.request.body, ADD_TENANT_ROLES_MESSAGES);
    const { created: isNew, entry } = await service.addTenantRoles(callerOf(ctx), await callerScope(context, ctx), id, body);
    // 201 for a tenant the group had no roles in, 200 for roles added to one it had.
    ctx.status = isNew ? 201 : 200;
    ctx.body = tenantRolesSchema.parse(entry);
  });

  router.delete(
    '/:id/roles/:tenantId',
    requireRole('groups.removeTenant'),
    noContent((ctx, caller, scope) => service.removeTenant(caller, scope, pathId(ctx.params.id), pathId(ctx.params.tenantId))),
  );

  return router;
}

/**
 * The user detail's "Add user to group" dialog: `/users/{id}/groups` (no prefix, next to the users
 * routes), with the same rules as the group's own member routes.
 */
export function userGroupRoutes(context: AppContext, service = new GroupsService(context)): Router {
  const router = new Router();
  const { created, noContent } = handlers(context);

  router.post(
    '/users/:id/groups',
    requireRole('groups.addMember'),
    created(memberSchema, (ctx, caller, scope) => {
      const userId = pathId(ctx.params.id);
      const { groupId, permission } = parseBody(addUserToGroupBodySchema, ctx.request.body, ADD_USER_TO_GROUP_MESSAGES);
      return service.addUserToGroup(caller, scope, userId, groupId.toLowerCase(), permission);
    }),
  );

  router.delete(
    '/users/:id/groups/:groupId',
    requireRole('groups.removeMember'),
    noContent((ctx, caller, scope) => service.removeMember(caller, scope, pathId(ctx.params.groupId), pathId(ctx.params.id), 'user')),
  );

  return router;
}
