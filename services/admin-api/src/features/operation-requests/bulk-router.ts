import Router from '@koa/router';
import { BULK_REQUEST_TEMPLATE_FILES, bulkOperationRequestsRoutes, type BulkRequestKind } from '@gatehouse/contracts';
import { AppError, type AppContext } from '@gatehouse/core';
import type { Context } from 'koa';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { xlsxUploadReader, type UploadedWorkbook } from '../../excel/upload.js';
import { attachment, readSheet } from '../../excel/workbook.js';
import { adminRoutes } from '../../http/route.js';
import { queueUpload } from '../jobs/uploads.js';
import { requestActorOf } from './access.js';
import { MAX_BULK_REQUEST_ROWS, bulkColumns, bulkRequestTemplate } from './bulk-excel.js';
import { consultedTenant } from './bulk-import.js';
import type { AdminContext } from '../../admin-context.js';

const JOB_TYPES = {
  requests: 'BulkInsertPermisionRequestForTenant',
  fullUsers: 'BulkInsertUserAndPermisionRequestForTenant',
} as const satisfies Record<BulkRequestKind, string>;

/**
 * My Clients' bulk uploads (`/api/v1/profile/template/…`, `/api/v1/profile/bulk_insert/…` and
 * `/api/v1/profile/full_bulk_insert/…`): the templates, and the uploads, checked at once (the role,
 * the tenant among those the caller consults for, else 404; then the file) and imported in the
 * background by bulkRequestsJob. The caller is already authenticated.
 */
export function bulkOperationRequestRoutes(context: AdminContext): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  const routes = bulkOperationRequestsRoutes;
  const readXlsx = xlsxUploadReader();
  const language = (ctx: Context) => ctx.state.language as string;

  const template = (kind: BulkRequestKind) => async ({ ctx }: { ctx: Context }) => {
    const content = await bulkRequestTemplate(context, kind, language(ctx));
    attachment(ctx, BULK_REQUEST_TEMPLATE_FILES[kind]);
    ctx.body = content;
  };

  /** The tenant first (nothing of the body is read for a tenant outside the caller's), then the file and its header row. */
  const upload = (kind: BulkRequestKind) => async ({ ctx, caller, params }: { ctx: Context; caller: Caller; params: { tenantId: string } }) => {
    const actor = await requestActorOf(context, caller, language(ctx));
    if (!(await consultedTenant(context, actor, params.tenantId))) throw new AppError('errors.not_found', 404);
    const file: UploadedWorkbook = await readXlsx(ctx);
    await readSheet(file.buffer, { columns: bulkColumns(context, kind), maxRows: MAX_BULK_REQUEST_ROWS });
    return queueUpload(context, ctx, caller, JOB_TYPES[kind], file, { tenantId: params.tenantId });
  };

  bind(router, routes.template, template('requests'));
  bind(router, routes.fullTemplate, template('fullUsers'));
  bind(router, routes.bulkInsert, upload('requests'));
  bind(router, routes.fullBulkInsert, upload('fullUsers'));
  return router;
}
