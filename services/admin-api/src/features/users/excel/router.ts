import Router from '@koa/router';
import { usersRoutes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { xlsxUploadReader } from '../../../excel/upload.js';
import { attachment, readSheet, type ColumnSpec } from '../../../excel/workbook.js';
import { adminRoutes } from '../../../http/route.js';
import { adminMailer } from '../../../mail.js';
import { UsersService } from '../service.js';
import { CHANGE_USER_NAME_COLUMNS, MAX_CHANGE_ROWS, changeUserNameTemplate, changeUserNames } from './change-user-name.js';
import { exportUserList } from './export.js';
import { IMPORT_COLUMNS, MAX_IMPORT_ROWS, importUsers, usersTemplate } from './import.js';
import type { SheetImportInput } from './messages.js';

export interface UserExcelRoutesOptions {
  /** Sends the invitations an import asks for; defaults to the users feature's service. */
  users?: Pick<UsersService, 'invite'>;
}

/**
 * Reads the uploaded .xlsx (koaXlsxUpload's checks and answers) and the rows of its first sheet,
 * as an import takes them. Runs after the route's role check, so an anonymous or unauthorised
 * caller learns nothing about the upload rules.
 */
const readXlsx = xlsxUploadReader();

async function readUpload<K extends string>(
  ctx: Context,
  sheet: { columns: ReadonlyArray<ColumnSpec<K>>; maxRows: number },
): Promise<Omit<SheetImportInput<K>, 'caller' | 'scope'>> {
  const file = await readXlsx(ctx);
  const rows = await readSheet(file.buffer, sheet);
  return { rows, fileName: file.name, language: ctx.state.language as string, requestId: ctx.state.requestId as string | undefined };
}

/**
 * `/users/export`, `/users/template`, `/users/bulk_insert`, `/users/changeUserNameTemplate` and
 * `/users/changeUserName`. Mounted before the `/users/:id` routes, whose pattern would otherwise
 * take these paths.
 */
export function userExcelRoutes(context: AppContext, options: UserExcelRoutesOptions = {}): Router {
  const users = options.users ?? new UsersService(context, adminMailer(context));
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
  bind(router, usersRoutes.bulkInsert, async ({ ctx, caller, scope }) => {
    const upload = await readUpload(ctx, { columns: IMPORT_COLUMNS, maxRows: MAX_IMPORT_ROWS });
    return importUsers(context, { ...upload, caller, scope: await scope(), users });
  });
  bind(router, usersRoutes.changeUserNameTemplate, async ({ ctx }) =>
    download(ctx, 'ChangeUserNameTemplate.xlsx', await changeUserNameTemplate(context, language(ctx))),
  );
  bind(router, usersRoutes.changeUserName, async ({ ctx, caller, scope }) => {
    const upload = await readUpload(ctx, { columns: CHANGE_USER_NAME_COLUMNS, maxRows: MAX_CHANGE_ROWS });
    return changeUserNames(context, { ...upload, caller, scope: await scope() });
  });
  return router;
}
