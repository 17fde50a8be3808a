import Router from '@koa/router';
import { tenantIdentitiesRoutes } from '@gatehouse/contracts';
import { toListQuery, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { callerAuthority } from '../../access.js';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { CallerScope } from '../../auth/scope.js';
import { xlsxUploadReader, type UploadedWorkbook } from '../../excel/upload.js';
import { attachment, readSheet } from '../../excel/workbook.js';
import { adminRoutes } from '../../http/route.js';
import { queueUpload } from '../jobs/uploads.js';
import { MAX_IMPORT_ROWS, identityTemplate, importColumns, type IdentityKind } from './excel.js';
import { USER_DISPLAY_NAME_SQL } from './repository.js';
import { TenantIdentitiesService } from './service.js';
import type { AdminContext } from '../../admin-context.js';

/** The lists' sortable fields and the SQL they sort by. */
const USER_SORT = { userName: 'u.user_name', email: 'u.email', displayName: USER_DISPLAY_NAME_SQL, areaName: 'a.name' };
const GROUP_SORT = { name: 'g.name', areaName: 'a.name' };
const GROUP_USER_SORT = { userName: 'u.user_name', email: 'u.email', displayName: USER_DISPLAY_NAME_SQL };

const TEMPLATE_FILE: Record<IdentityKind, string> = { users: 'UsersWithTenantTemplate.xlsx', groups: 'GroupsWithTenantTemplate.xlsx' };

/**
 * `/tenantIdentities/*`: the Permissions page's users and groups with their tenants, and the
 * imports that give them roles in tenants (run in the background: tenantRolesImportJob). The
 * caller is already authenticated.
 */
export function tenantIdentityRoutes(context: AdminContext, service = new TenantIdentitiesService(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const routes = tenantIdentitiesRoutes;
  const readXlsx = xlsxUploadReader();
  const language = (ctx: Context) => ctx.state.language as string;

  /** Reads the uploaded .xlsx (after the route's role check) and checks its first sheet reads as the import's rows. */
  const checkedUpload = async (ctx: Context, kind: IdentityKind): Promise<UploadedWorkbook> => {
    const file = await readXlsx(ctx);
    await readSheet(file.buffer, { columns: importColumns(context, kind), maxRows: MAX_IMPORT_ROWS });
    return file;
  };

  bind(router, routes.users, async ({ scope, query }) => service.users(await scope(), toListQuery(query, USER_SORT), query));
  bind(router, routes.groups, async ({ scope, query }) => service.groups(await scope(), toListQuery(query, GROUP_SORT), query));
  bind(router, routes.group, async ({ scope, params }) => service.group(await scope(), params.groupId));
  bind(router, routes.groupUsers, async ({ scope, params, query }) => service.groupUsers(await scope(), params.groupId, toListQuery(query, GROUP_USER_SORT)));

  const template = (kind: IdentityKind) => async ({ ctx, caller, scope }: { ctx: Context; caller: Caller; scope: () => Promise<CallerScope> }) => {
    const callerScope = await scope();
    const content = await identityTemplate(context, callerScope, await callerAuthority(context.dataSource, caller, callerScope), kind, language(ctx));
    attachment(ctx, TEMPLATE_FILE[kind]);
    ctx.body = content;
  };
  bind(router, routes.usersTemplate, template('users'));
  bind(router, routes.groupsTemplate, template('groups'));
  bind(router, routes.bulkInsertUsers, async ({ ctx, caller }) =>
    queueUpload(context, ctx, caller, 'BulkInsertUsersWithTenant', await checkedUpload(ctx, 'users')),
  );
  bind(router, routes.bulkInsertGroups, async ({ ctx, caller }) =>
    queueUpload(context, ctx, caller, 'BulkInsertGroupsWithTenant', await checkedUpload(ctx, 'groups')),
  );

  return router;
}
