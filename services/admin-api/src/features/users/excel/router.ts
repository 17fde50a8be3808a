import Router from '@koa/router';
import { usersRoutes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { xlsxUploadReader, type UploadedWorkbook } from '../../../excel/upload.js';
import { attachment, readSheet, type ColumnSpec } from '../../../excel/workbook.js';
import { adminRoutes } from '../../../http/route.js';
import { queueUpload } from '../../jobs/uploads.js';
import { CHANGE_USER_NAME_COLUMNS, MAX_CHANGE_ROWS, changeUserNameTemplate } from './change-user-name.js';
import { exportUserList } from './export.js';
import { IMPORT_COLUMNS, MAX_IMPORT_ROWS, usersTemplate } from './import.js';
import type { AdminContext } from '../../../admin-context.js';

/**
 * Reads the uploaded .xlsx (koaXlsxUpload's checks and answers) and checks that its first sheet
 * reads as the import's rows, so a bad file is refused at once. Runs after the route's role check,
 * so an anonymous or unauthorised caller learns nothing about the upload rules.
 */
const readXlsx = xlsxUploadReader();

async function checkedUpload<K extends string>(ctx: Context, sheet: { columns: ReadonlyArray<ColumnSpec<K>>; maxRows: number }): Promise<UploadedWorkbook> {
  const file = await readXlsx(ctx);
  await readSheet(file.buffer, sheet);
  return file;
}

/**
 * `/users/export`, `/users/template`, `/users/bulk_insert`, `/users/changeUserNameTemplate` and
 * `/users/changeUserName`; the two uploads are imported in the background (bulkInsertUsersJob,
 * changeUserNamesJob). Mounted before the `/users/:id` routes, whose pattern would otherwise take
 * these paths.
 */
export function userExcelRoutes(context: AdminContext): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const language = (ctx: Context) => ctx.state.language as string;
  const download = (ctx: Context, filename: string, body: unknown) => {
    attachment(ctx, filename);
    ctx.body = body;
  };

  bind(router, usersRoutes.export, async ({ ctx, scope, query }) =>
    download(ctx, 'Users.xlsx', await exportUserList(context, ctx, query, await scope(), language(ctx))),
  );
  bind(router, usersRoutes.template, async ({ ctx, scope }) => download(ctx, 'UsersTemplate.xlsx', await usersTemplate(context, await scope(), language(ctx))));
  bind(router, usersRoutes.bulkInsert, async ({ ctx, caller }) => {
    const file = await checkedUpload(ctx, { columns: IMPORT_COLUMNS, maxRows: MAX_IMPORT_ROWS });
    return queueUpload(context, ctx, caller, 'BulkInsertUsers', file);
  });
  bind(router, usersRoutes.changeUserNameTemplate, async ({ ctx }) =>
    download(ctx, 'ChangeUserNameTemplate.xlsx', await changeUserNameTemplate(context, language(ctx))),
  );
  bind(router, usersRoutes.changeUserName, async ({ ctx, caller }) => {
    const file = await checkedUpload(ctx, { columns: CHANGE_USER_NAME_COLUMNS, maxRows: MAX_CHANGE_ROWS });
    return queueUpload(context, ctx, caller, 'BulkChangeUsernameEmail', file);
  });
  return router;
}
