import type { AppContext } from '../context.js';
import { withEnqueueSpans } from '../telemetry/jobs.js';
import { BullMqJobQueue } from './bullmq-queue.js';
import { PgBossJobQueue } from './pgboss-queue.js';
import { DEFAULT_TIMINGS, type JobQueue, type JobQueueTimings } from './types.js';

export * from './types.js';
export { JobTracker, type QueuedJobData } from './tracker.js';
export { PgBossJobQueue, PG_BOSS_QUEUE, PG_BOSS_SCHEMA } from './pgboss-queue.js';
export { BullMqJobQueue, BULLMQ_QUEUE } from './bullmq-queue.js';

export interface CreateJobQueueOptions {
  /** Over the configured and default timings (tests shorten them). */
  timings?: Partial<JobQueueTimings>;
  /** BullMQ key prefix (default: one per public URL). */
  prefix?: string;
}

/** BullMQ when Redis is configured, else pg-boss on the product's database. Not started. */
export function createJobQueue(context: AppContext, options: CreateJobQueueOptions = {}): JobQueue {
  const timings: JobQueueTimings = { ...DEFAULT_TIMINGS, expireSeconds: context.config.jobs.expireSeconds, ...options.timings };
  const common = { dataSource: context.dataSource, logger: context.logger, timings, stopTimeoutMs: context.config.server.shutdownTimeoutMs };
  if (context.config.redis.url) {
    return withEnqueueSpans(new BullMqJobQueue({ ...common, redisUrl: context.config.redis.url, prefix: options.prefix ?? `${context.config.redis.keyPrefix}:${context.config.server.publicUrl}:jobs` }));
  }
  return withEnqueueSpans(new PgBossJobQueue(common));
}
