import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import { callerOf } from '../../../auth/koa-admin-auth.js';
import { requireRole } from '../../../auth/permissions.js';
import { callerScope } from '../../../auth/scope.js';
import { koaXlsxUpload, uploadOf } from '../../../excel/upload.js';
import { attachment } from '../../../excel/workbook.js';
import { pathId } from '../schema.js';
import { GroupMembersExcel, type RowIssue } from './service.js';
import { FILE_FIELD, memberImportErrors, readMemberRows } from './workbook.js';

/**
 * `/groups/template/{groupId}` and `/groups/bulk_insert/{groupId}`: the members template and its
 * upload. Registered before groupRoutes, whose `/groups/:id…` paths would otherwise be tried first.
 */
export function groupExcelRoutes(context: AppContext, excel = new GroupMembersExcel(context)): Router {
  const router = new Router({ prefix: '/groups' });
  const t = (ctx: Context, key: string, params: Record<string, unknown> = {}) =>
    context.i18n.t(key, { lng: ctx.state.language as string | undefined, ...params }) as string;

  router.get('/template/:groupId', requireRole('groups.template'), async (ctx) => {
    const groupId = pathId(ctx.params.groupId);
    const labels = { sheet: t(ctx, 'groups.template_sheet'), userNote: t(ctx, 'groups.template_user_note'), permissionNote: t(ctx, 'groups.template_permission_note') };
    const { fileName, content } = await excel.template(callerOf(ctx), await callerScope(context, ctx), groupId, labels);
    attachment(ctx, fileName);
    ctx.body = content;
  });

  router.post(
    '/bulk_insert/:groupId',
    requireRole('groups.bulkInsert'),
    async (ctx, next) => {
      ctx.state.groupId = pathId(ctx.params.groupId);
      await excel.assertCanImport(callerOf(ctx), await callerScope(context, ctx), ctx.state.groupId as string);
      await next();
    },
    koaXlsxUpload({ field: FILE_FIELD, errors: memberImportErrors }),
    async (ctx) => {
      const file = uploadOf(ctx);
      const rows = await readMemberRows(file.buffer);
      const outcome = await excel.import(callerOf(ctx), await callerScope(context, ctx), ctx.state.groupId as string, file.name, rows);
      const render = (issue: RowIssue) => ({ row: issue.row, reason: t(ctx, issue.code, issue.params) });
      ctx.body = {
        success: outcome.errors.length === 0,
        totalElements: outcome.totalElements,
        importedElements: outcome.importedElements,
        errors: outcome.errors.map(render),
        warnings: outcome.warnings.map(render),
      };
    },
  );

  return router;
}
