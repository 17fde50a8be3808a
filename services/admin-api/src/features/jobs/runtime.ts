import {
  AppError,
  createJobQueue,
  LANGUAGES,
  personLanguage,
  type AppContext,
  type CreateJobQueueOptions,
  type JobEvent,
  type JobHandler,
  type JobQueue,
  type JobType,
  type Language,
  WebhookDeliverer,
  type WebhookDelivererOptions,
} from '@gatehouse/core';
import type { NotificationData } from '@gatehouse/contracts';
import type { AdminContext } from '../../admin-context.js';
import { announceProcess, notify } from '../notifications/notify.js';
import { startFilePurge } from './files.js';

/** The job queue this node's routes enqueue on; 503 when background jobs are not running. */
export function jobQueueOf(context: AdminContext): JobQueue {
  const queue = context.jobs.queue;
  if (!queue) throw new AppError('errors.service_unavailable', 503);
  return queue;
}

/**
 * The language a job writes its outcome in (files, messages, its notification): the one its
 * requester's interface used when asking (kept in the payload), else the requester's saved
 * preferred language, else the product's default.
 */
export async function jobLanguage(context: AppContext, userId: string | null | undefined, asked: unknown): Promise<Language> {
  const wanted = LANGUAGES.find((language) => language === asked);
  if (wanted || !userId) return personLanguage(wanted, undefined);
  const [row] = (await context.dataSource.query('SELECT language FROM users WHERE id = $1', [userId])) as Array<{ language: string }>;
  return personLanguage(undefined, row?.language);
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
async function tell(context: AdminContext, event: JobEvent): Promise<void> {
  const { job } = event;
  if (!job.userId) return;
  if (event.kind === 'started') {
    announceProcess(context, job.userId, { id: job.id, type: job.type, status: 'Running', startTime: job.startedAt ?? new Date(), progress: 0, total: null });
    return;
  }
  const language = await jobLanguage(context, job.userId, job.payload.language);
  if (event.kind === 'succeeded') {
    const data = outcomeOf(job.result);
    await notify(context, job.userId, {
      // Named after the job, as the console's flyout labels them.
      type: job.type,
      message: { key: `jobs.done.${job.type}`, params: { totalElements: data.totalElements ?? 0, importedElements: data.importedElements ?? 0 } },
      language,
      data,
    });
    return;
  }
  await notify(context, job.userId, {
    type: job.type,
    // The error was written in the job's language when it failed; the sentence around it follows the reader.
    message: { key: 'jobs.failed', params: { error: job.error ?? '' } },
    language,
    data: { success: false, messageError: job.error ?? undefined },
  });
}

/** Background jobs of this node: the queue (workers started), its notifications, the purge of expired files. */
export interface BackgroundJobs {
  queue: JobQueue;
  stop(options?: { abrupt?: boolean }): Promise<void>;
}

/** The handler of each job type, made for one context (the composition root, app.ts, knows them all). */
export type JobHandlers = Partial<Record<JobType, (context: AdminContext) => JobHandler<never>>>;

export async function runBackgroundJobs(
  context: AdminContext,
  handlers: JobHandlers,
  options: CreateJobQueueOptions & { webhooks?: WebhookDelivererOptions } = {},
): Promise<BackgroundJobs> {
  if (context.jobs.queue) throw new Error('background jobs are already running on this context');
  const queue = createJobQueue(context, options);
  for (const [type, handler] of Object.entries(handlers)) queue.register(type as JobType, handler(context) as JobHandler);
  queue.onEvent((event) => tell(context, event));
  queue.onEvent(({ kind, job }) => {
    if (kind !== 'started') context.metrics.jobsFinished.inc({ type: job.type, outcome: kind });
  });
  await queue.start();
  context.jobs.queue = queue;
  const purge = startFilePurge(context);
  const deliverer = startWebhookDeliveries(context, options.webhooks);
  return {
    queue,
    async stop(stopOptions) {
      if (context.jobs.queue === queue) delete context.jobs.queue;
      if (context.webhooks.deliverer === deliverer) delete context.webhooks.deliverer;
      await deliverer.stop();
      await purge.stop();
      await queue.stop(stopOptions);
    },
  };
}

/** Tells an endpoint's creator and its application's owners that it was turned off for failing. */
export function tellWebhookOwners(context: AdminContext): NonNullable<WebhookDelivererOptions['onEndpointDisabled']> {
  return async (endpoint) => {
    const owners: Array<{ user_id: string }> = endpoint.applicationId
      ? await context.dataSource.query('SELECT user_id FROM application_owners WHERE application_id = $1', [endpoint.applicationId])
      : [];
    const told = new Set([...(endpoint.createdBy ? [endpoint.createdBy] : []), ...owners.map((owner) => owner.user_id)]);
    for (const userId of told) {
      await notify(context, userId, { type: 'WebhookDisabled', message: { key: 'webhooks.disabled', params: { url: endpoint.url } } });
    }
  };
}

/** This node's share of the webhook deliveries; an endpoint turned off for failing is told to its creator and its application's owners. */
function startWebhookDeliveries(context: AdminContext, options: WebhookDelivererOptions = {}): WebhookDeliverer {
  const deliverer = new WebhookDeliverer(context, { onEndpointDisabled: tellWebhookOwners(context), ...options });
  deliverer.start();
  context.webhooks.deliverer = deliverer;
  return deliverer;
}
