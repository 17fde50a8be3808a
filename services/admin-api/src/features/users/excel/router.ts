import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { callerOf } from '../../../auth/koa-admin-auth.js';
import { requireRole, type EndpointName } from '../../../auth/permissions.js';
import { callerScope } from '../../../auth/scope.js';
import { koaXlsxUpload, uploadOf } from '../../../excel/upload.js';
import { attachment, readSheet, type ColumnSpec } from '../../../excel/workbook.js';
import { userListSql } from '../repository.js';
import { adminMailer } from '../router.js';
import { UsersService } from '../service.js';
import { CHANGE_USER_NAME_COLUMNS, MAX_CHANGE_ROWS, changeUserNameTemplate, changeUserNames } from './change-user-name.js';
import { exportUsers } from './export.js';
import { IMPORT_COLUMNS, MAX_IMPORT_ROWS, importUsers, usersTemplate } from './import.js';
import { parseUserListExportQuery } from './list-query.js';
import type { ImportResult, SheetImportInput } from './messages.js';

export interface UserExcelRoutesOptions {
  /** Sends the invitations an import asks for; defaults to the users feature's service. */
  users?: Pick<UsersService, 'invite'>;
}

/**
 * `/users/export`, `/users/template`, `/users/bulk_insert`, `/users/changeUserNameTemplate` and
 * `/users/changeUserName` under the admin API prefix. Mounted before the `/users/:id` routes, whose
 * pattern would otherwise take these paths.
 */
export function userExcelRoutes(context: AppContext, options: UserExcelRoutesOptions = {}): Router {
  const users = options.users ?? new UsersService(context, adminMailer(context));
  const router = new Router({ prefix: '/users' });
  const language = (ctx: Context) => ctx.state.language as string;

  /** A workbook download saved as `filename`. */
  const download = (path: string, endpoint: EndpointName, filename: string, workbook: (ctx: Context) => Promise<unknown>) =>
    router.get(path, requireRole(endpoint), async (ctx) => {
      const body = await workbook(ctx);
      attachment(ctx, filename);
      ctx.body = body;
    });

  /** An upload of one .xlsx whose first sheet's rows (`columns`, at most `maxRows`) `run` imports. */
  const upload = <K extends string>(
    path: string,
    endpoint: EndpointName,
    sheet: { columns: ReadonlyArray<ColumnSpec<K>>; maxRows: number },
    run: (input: SheetImportInput<K>) => Promise<ImportResult>,
  ) =>
    router.post(path, requireRole(endpoint), koaXlsxUpload(), async (ctx) => {
      const file = uploadOf(ctx);
      const rows = await readSheet(file.buffer, sheet);
      ctx.body = await run({
        caller: callerOf(ctx),
        scope: await callerScope(context, ctx),
        rows,
        fileName: file.name,
        language: language(ctx),
        requestId: ctx.state.requestId as string | undefined,
      });
    });

  download('/export', 'users.export', 'Users.xlsx', async (ctx) => {
    const query = parseUserListExportQuery(ctx.query);
    const scope = await callerScope(context, ctx);
    const base = userListSql({ ...query.filter, areaIds: scope.areaIds }, query.orderBy);
    return exportUsers(context, ctx, { base, sort: query.sort, language: language(ctx) });
  });

  download('/template', 'users.template', 'UsersTemplate.xlsx', async (ctx) => usersTemplate(context, await callerScope(context, ctx), language(ctx)));

  upload('/bulk_insert', 'users.bulkInsert', { columns: IMPORT_COLUMNS, maxRows: MAX_IMPORT_ROWS }, (input) => importUsers(context, { ...input, users }));

  download('/changeUserNameTemplate', 'users.changeUserNameTemplate', 'ChangeUserNameTemplate.xlsx', (ctx) => changeUserNameTemplate(context, language(ctx)));

  upload('/changeUserName', 'users.changeUserName', { columns: CHANGE_USER_NAME_COLUMNS, maxRows: MAX_CHANGE_ROWS }, (input) => changeUserNames(context, input));

  return router;
}
