import { AppError, createJobQueue, type AppContext, type CreateJobQueueOptions, type JobEvent, type JobHandler, type JobQueue, type JobType } from '@gatehouse/core';
import type { NotificationData } from '@gatehouse/contracts';
import { announceProcess, notify } from '../notifications/notify.js';
import { startFilePurge } from './files.js';
import { jobHandlers } from './handlers.js';

const queues = new WeakMap<AppContext, JobQueue>();

/** The job queue this context's routes enqueue on; 503 when background jobs are not running. */
export function jobQueueOf(context: AppContext): JobQueue {
  const queue = queues.get(context);
  if (!queue) throw new AppError('errors.service_unavailable', 503);
  return queue;
}

async function userLanguage(context: AppContext, userId: string): Promise<string> {
  const [row] = (await context.dataSource.query('SELECT language FROM users WHERE id = $1', [userId])) as Array<{ language: string }>;
  return row?.language ?? 'en';
}

/** What a finished job's notification carries: its file, or its import result. */
export function outcomeOf(result: Record<string, unknown> | null): NotificationData {
  const data: NotificationData = { success: result?.success === false ? false : true };
  if (typeof result?.fileUrl === 'string') data.fileUrl = result.fileUrl;
  if (typeof result?.totalElements === 'number') {
    data.totalElements = result.totalElements;
    data.importedElements = typeof result.importedElements === 'number' ? result.importedElements : 0;
    data.errors = Array.isArray(result.errors) ? (result.errors as NotificationData['errors']) : [];
    data.warnings = Array.isArray(result.warnings) ? (result.warnings as NotificationData['warnings']) : [];
  }
  return data;
}

/** Started processes show in the user's consoles; finished ones leave a notification in their language. */
async function tell(context: AppContext, event: JobEvent): Promise<void> {
  const { job } = event;
  if (!job.userId) return;
  if (event.kind === 'started') {
    announceProcess(context, job.userId, { id: job.id, type: job.type, status: 'Running', startTime: job.startedAt ?? new Date(), progress: 0, total: null });
    return;
  }
  // The language the requester used when asking for the job, else the one of their profile.
  const lng = typeof job.payload.language === 'string' && job.payload.language ? job.payload.language : await userLanguage(context, job.userId);
  if (event.kind === 'succeeded') {
    const data = outcomeOf(job.result);
    await notify(context, job.userId, {
      // Named after the job, as the console's flyout labels them.
      type: job.type,
      description: context.i18n.t(`jobs.done.${job.type}`, {
        lng,
        totalElements: data.totalElements ?? 0,
        importedElements: data.importedElements ?? 0,
      }) as string,
      data,
    });
    return;
  }
  await notify(context, job.userId, {
    type: job.type,
    description: context.i18n.t('jobs.failed', { lng, error: job.error ?? '' }) as string,
    data: { success: false, messageError: job.error ?? undefined },
  });
}

/** Background jobs of this node: the queue (workers started), its notifications, the purge of expired files. */
export interface BackgroundJobs {
  queue: JobQueue;
  stop(options?: { abrupt?: boolean }): Promise<void>;
}

export async function startBackgroundJobs(context: AppContext, options: CreateJobQueueOptions = {}): Promise<BackgroundJobs> {
  if (queues.has(context)) throw new Error('background jobs are already running on this context');
  const queue = createJobQueue(context, options);
  for (const [type, handler] of Object.entries(jobHandlers)) queue.register(type as JobType, handler(context) as JobHandler);
  queue.onEvent((event) => tell(context, event));
  await queue.start();
  queues.set(context, queue);
  const purge = startFilePurge(context);
  return {
    queue,
    async stop(stopOptions) {
      queues.delete(context);
      await purge.stop();
      await queue.stop(stopOptions);
    },
  };
}
