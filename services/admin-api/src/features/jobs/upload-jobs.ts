import type { EndpointName, ImportResult } from '@gatehouse/contracts';
import {
  AppError,
  DEFAULT_TIMINGS,
  IDENTITY_APPLICATION_ID,
  PermanentJobError,
  resolveEffectiveRoles,
  type AppContext,
  type JobHandler,
  type JobRun,
} from '@gatehouse/core';
import type { Caller } from '../../auth/koa-admin-auth.js';
import { rolesAllow } from '../../auth/permissions.js';
import { scopeOf, type CallerScope } from '../../auth/scope.js';
import { readOwnFile } from './files.js';
import { jobLanguage } from './runtime.js';

/** What an import job carries: the upload kept for it, and what its request said. */
export interface UploadJobPayload extends Record<string, unknown> {
  /** The upload in `stored_files`, its requester's own. */
  fileId: string;
  /**
   * The language the upload request's interface asked in (none: the requester's saved language):
   * the result's row messages are written in it.
   */
  language: string | null;
  /** The route's parameters (the group of a members import). */
  params: Record<string, string>;
}

/** One run of an import job, as the import is given it. */
export interface UploadJob {
  jobId: string;
  /** The requester as they are now: their current roles, not those of the upload's token. */
  caller: Caller;
  /** The requester's scope for the import's endpoint, worked out now. */
  scope: CallerScope;
  file: { name: string; bytes: Buffer };
  language: string;
  params: Record<string, string>;
  /** How far the import got: rows dealt with of its rows; cheap to call on every row. */
  progress(done: number, total: number): void;
  /**
   * Set when an earlier attempt was cut short (a node stopped mid-run): since when rows may have
   * been applied by it, so the import tells them from rows applied by someone else.
   */
  resumed: { since: Date } | undefined;
}

/** The job's progress is written every this many rows. */
export const PROGRESS_EVERY_ROWS = 100;

/**
 * The handler of an import job queued by queueUpload. It rebuilds the requester at run time (a
 * deleted, locked or draft account, or one that no longer holds a role opening `endpoint`, gets
 * nothing imported), reads the kept upload, runs `importFile` and answers its result. What the
 * requester could have been told at once (no right, a bad file, a group gone) fails the job for
 * good, in the upload's language; the upload is deleted when the job ends, kept only for an
 * attempt still to come.
 */
export function uploadJob(context: AppContext, endpoint: EndpointName, importFile: (job: UploadJob) => Promise<ImportResult>): JobHandler<UploadJobPayload> {
  return async (run) => {
    const payload = payloadOf(run.payload);
    const { fileId, params } = payload;
    const userId = run.userId;
    if (!userId) throw new PermanentJobError('the import has no requester');
    const language = await jobLanguage(context, userId, payload.language);
    const progress = throttledProgress(context, run);
    let keepFile = false;
    try {
      const caller = await callerNow(context, userId, endpoint);
      const scope = await scopeOf(context, caller, endpoint);
      const file = await readOwnFile(context.dataSource, userId, fileId);
      const resumed = run.attempt > 1 ? await firstStart(context, run.jobId) : undefined;
      const result = await importFile({
        jobId: run.jobId,
        caller,
        scope,
        file: { name: file.fileName, bytes: file.bytes },
        language,
        params,
        progress: progress.report,
        resumed,
      });
      await progress.flush();
      return result;
    } catch (error) {
      await progress.flush();
      if (error instanceof AppError && error.expose) {
        throw new PermanentJobError(context.i18n.t(error.code, { lng: language, ...error.params, requestId: run.jobId }) as string);
      }
      // A failure of ours (the database gone away): the queue tries again, with the file.
      keepFile = !(error instanceof PermanentJobError) && run.attempt < DEFAULT_TIMINGS.attempts;
      throw error;
    } finally {
      if (!keepFile) await deleteUpload(context, userId, fileId);
    }
  };
}

function payloadOf(payload: Record<string, unknown>): UploadJobPayload {
  const { fileId, language, params } = payload;
  if (typeof fileId !== 'string' || typeof params !== 'object' || params === null) {
    throw new PermanentJobError('the import job does not name its file');
  }
  return { fileId, language: typeof language === 'string' ? language : null, params: params as Record<string, string> };
}

/**
 * The requester with their current Identity roles, as a personal access token would have them;
 * refused as the API would refuse their request now.
 */
async function callerNow(context: AppContext, userId: string, endpoint: EndpointName): Promise<Caller> {
  const [account] = (await context.dataSource.query('SELECT locked, draft FROM users WHERE id = $1', [userId])) as Array<{ locked: boolean; draft: boolean }>;
  if (!account || account.locked || account.draft) throw new AppError('errors.unauthorized', 401);
  const roles = [...new Set((await resolveEffectiveRoles(context.dataSource, userId, { applicationId: IDENTITY_APPLICATION_ID })).map((role) => role.roleName))];
  if (!rolesAllow(endpoint, roles)) throw new AppError('errors.forbidden', 403);
  return { kind: 'access_token', userId, roles, scopes: [], tokenId: null };
}

/** When the job first started: what an earlier attempt did was done since. */
async function firstStart(context: AppContext, jobId: string): Promise<{ since: Date } | undefined> {
  const [row] = (await context.dataSource.query('SELECT started_at FROM background_jobs WHERE id = $1', [jobId])) as Array<{ started_at: Date | null }>;
  return row?.started_at ? { since: new Date(row.started_at) } : undefined;
}

async function deleteUpload(context: AppContext, ownerId: string, fileId: string): Promise<void> {
  await context.dataSource.query('DELETE FROM stored_files WHERE id = $1 AND owner_id = $2', [fileId, ownerId]).catch((error: Error) => {
    // It expires within a day anyway, and is deleted then.
    context.logger.warn({ err: error.message, fileId }, 'deleting an import upload failed');
  });
}

/**
 * Writes the job's progress every PROGRESS_EVERY_ROWS rows, without the import waiting for it: an
 * import that holds a transaction open must not wait on another connection. One write at a time;
 * a row reached while one is under way is left to the next.
 */
function throttledProgress(context: AppContext, run: JobRun<UploadJobPayload>): { report: (done: number, total: number) => void; flush: () => Promise<void> } {
  let written = -PROGRESS_EVERY_ROWS;
  let writing: Promise<void> | undefined;
  return {
    report(done, total) {
      if (writing || (done - written < PROGRESS_EVERY_ROWS && done !== total)) return;
      written = done;
      writing = run
        .progress(done, total)
        .catch((error: Error) => context.logger.warn({ err: error.message, jobId: run.jobId }, 'recording an import’s progress failed'))
        .finally(() => (writing = undefined));
    },
    flush: async () => {
      await writing;
    },
  };
}
