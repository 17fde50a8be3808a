import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { dashboardRoutes, fileStorageRoutes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { readOwnFile } from './files.js';
import { jobQueueOf } from './runtime.js';
import type { AdminContext } from '../../admin-context.js';

/** `POST /dashboard/adminReport` (queues the report) and `GET /filestorage/downloadExcel` (the caller's own files). */
export function jobRoutes(context: AdminContext): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, dashboardRoutes.adminReport, async ({ ctx, caller }) => {
    // The language of the console that asked (none: the requester's saved one): the report and its notification are written in it.
    const jobId = await jobQueueOf(context).enqueue('AdminReport', { language: (ctx.state.requestedLanguage as string | undefined) ?? null }, { userId: caller.userId });
    return { jobId };
  });
  bind(router, fileStorageRoutes.downloadExcel, async ({ ctx, caller, query }) => {
    const file = await readOwnFile(context.dataSource, caller.userId, query.url);
    ctx.attachment(file.fileName);
    ctx.type = file.mediaType;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = file.bytes;
  });
  return router;
}
