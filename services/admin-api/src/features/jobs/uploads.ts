import type { BackgroundJobStarted } from '@gatehouse/contracts';
import type { AppContext, JobType } from '@gatehouse/core';
import type { Context } from 'koa';
import type { Caller } from '../../auth/koa-admin-auth.js';
import type { UploadedWorkbook } from '../../excel/upload.js';
import { XLSX_MEDIA_TYPE, storeFile } from './files.js';
import { jobQueueOf } from './runtime.js';
import type { UploadJobPayload } from './upload-jobs.js';
import type { AdminContext } from '../../admin-context.js';

/** How long an upload is kept for its job: the job runs within minutes; a day covers every retry. */
const UPLOAD_LIFETIME_HOURS = 24;

/**
 * Keeps an upload the request has checked (its caller's own file, for a day) and queues the job
 * that imports it, with the route's parameters and the request's language; answers the job's id.
 */
export async function queueUpload(
  context: AdminContext,
  ctx: Context,
  caller: Caller,
  type: JobType,
  file: UploadedWorkbook,
  params: Record<string, string> = {},
): Promise<BackgroundJobStarted> {
  // Refused before the file is kept when this node runs no jobs.
  const queue = jobQueueOf(context);
  const fileId = await storeFile(context, { ownerId: caller.userId, fileName: file.name, mediaType: XLSX_MEDIA_TYPE, bytes: file.buffer });
  await context.dataSource.query(
    `UPDATE stored_files SET expires_at = LEAST(expires_at, now() + make_interval(hours => $2)) WHERE id = $1`,
    [fileId, UPLOAD_LIFETIME_HOURS],
  );
  const payload: UploadJobPayload = { fileId, language: (ctx.state.requestedLanguage as string | undefined) ?? null, params };
  try {
    return { jobId: await queue.enqueue(type, payload, { userId: caller.userId }) };
  } catch (error) {
    await context.dataSource.query('DELETE FROM stored_files WHERE id = $1', [fileId]);
    throw error;
  }
}
