import Router from '@koa/router';
import { groupsRoutes } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import { xlsxUploadReader } from '../../../excel/upload.js';
import { attachment } from '../../../excel/workbook.js';
import { adminRoutes } from '../../../http/route.js';
import { queueUpload } from '../../jobs/uploads.js';
import { GroupMembersExcel } from './service.js';
import { FILE_FIELD, memberImportErrors } from './workbook.js';
import type { AdminContext } from '../../../admin-context.js';

/**
 * `/groups/template/{groupId}` and `/groups/bulk_insert/{groupId}`: the members template and its
 * upload, imported in the background (groupMembersImportJob). Registered before groupRoutes, whose
 * `/groups/:id…` paths would otherwise be tried first.
 */
export function groupExcelRoutes(context: AdminContext, excel = new GroupMembersExcel(context)): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const upload = xlsxUploadReader({ field: FILE_FIELD, errors: memberImportErrors });
  const language = (ctx: { state: Record<string, unknown> }) => ctx.state.language as string | undefined;

  bind(router, groupsRoutes.template, async ({ ctx, caller, scope, params }) => {
    const { fileName, content } = await excel.template(caller, await scope(), params.groupId, language(ctx));
    attachment(ctx, fileName);
    ctx.body = content;
  });

  // The caller's right to import is checked before the file is read, and again when the job runs.
  bind(router, groupsRoutes.bulkInsert, async ({ ctx, caller, scope, params }) => {
    const file = await excel.checkUpload(caller, await scope(), params.groupId, () => upload(ctx));
    return queueUpload(context, ctx, caller, 'BulkInsertGroupMembers', file, { groupId: params.groupId });
  });

  return router;
}
