import Router from '@koa/router';
import type { AppContext } from '@gatehouse/core';
import { dashboardRoutes, fileStorageRoutes } from '@gatehouse/contracts';
import { adminRoutes } from '../../http/route.js';
import { readOwnFile } from './files.js';
import { jobQueueOf } from './runtime.js';

/** `POST /dashboard/adminReport` (queues the report) and `GET /filestorage/downloadExcel` (the caller's own files). */
export function jobRoutes(context: AppContext): Router {
  const router = new Router();
  const { bind } = adminRoutes(context);
  bind(router, dashboardRoutes.adminReport, async ({ ctx, caller }) => {
    // The language of the console that asked: the notification says the report is ready in it.
    const jobId = await jobQueueOf(context).enqueue('AdminReport', { language: ctx.state.language as string }, { userId: caller.userId });
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
