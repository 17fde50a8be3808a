import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Logger } from '../logging/logger.js';
import { JobTracker, type QueuedJobData } from './tracker.js';
import type { JobHandler, JobListener, JobQueue, JobQueueTimings, JobType, QueueJobState } from './types.js';

export const BULLMQ_QUEUE = 'gatehouse-jobs';

export interface BullMqQueueOptions {
  dataSource: DataSource;
  logger: Logger;
  timings: JobQueueTimings;
  redisUrl: string;
  /** Keeps deployments sharing one Redis apart. */
  prefix: string;
  stopTimeoutMs?: number;
}

/**
 * Jobs in Redis with BullMQ; the rows stay in the product's database. A job whose process died
 * keeps its lock until the lock expires (`expireSeconds`); a live worker's stalled-job check then
 * puts it back in the queue (twice at most, then it fails).
 */
export class BullMqJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private readonly tracker: JobTracker;
  private readonly timings: JobQueueTimings;
  private readonly connection: Redis;
  private readonly queue: Queue;
  private worker?: Worker;
  /** The worker's own connection: BullMQ does not close a connection it was given. */
  private workerConnection?: Redis;
  private alive = true;
  private sweepTimer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;

  constructor(private readonly options: BullMqQueueOptions) {
    this.timings = options.timings;
    this.tracker = new JobTracker(options.dataSource, options.logger);
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.connection.on('error', (error: Error) => options.logger.warn({ err: error.message }, 'job queue (redis) error'));
    this.queue = new Queue(BULLMQ_QUEUE, { connection: this.connection, prefix: options.prefix });
    this.queue.on('error', (error: Error) => options.logger.warn({ err: error.message }, 'job queue (bullmq) error'));
  }

  register<P extends Record<string, unknown>>(type: JobType, handler: JobHandler<P>): void {
    this.tracker.register(type, handler as unknown as JobHandler);
  }

  onEvent(listener: JobListener): void {
    this.tracker.onEvent(listener);
  }

  async enqueue(type: JobType, payload: Record<string, unknown>, options: { userId?: string | null } = {}): Promise<string> {
    const data = await this.tracker.insert(type, payload, options.userId ?? null);
    try {
      await this.queue.add(type, data, {
        jobId: data.jobId,
        attempts: this.timings.attempts,
        backoff: { type: 'exponential', delay: this.timings.retryDelayMs },
        removeOnComplete: { age: 24 * 3600 },
        removeOnFail: { age: 7 * 24 * 3600 },
      });
    } catch (error) {
      await this.tracker.fail(data.jobId, error);
      throw error;
    }
    return data.jobId;
  }

  async start(): Promise<void> {
    if (this.worker) return;
    const lockDuration = this.timings.expireSeconds * 1000;
    this.workerConnection = this.connection.duplicate();
    this.workerConnection.on('error', (error: Error) => {
      if (this.alive) this.options.logger.warn({ err: error.message }, 'job worker (redis) error');
    });
    this.worker = new Worker<QueuedJobData>(
      BULLMQ_QUEUE,
      async (job: Job<QueuedJobData>) => {
        const attempt = job.attemptsMade + 1;
        await this.tracker.run(job.data, { attempt, lastAttempt: attempt >= (job.opts.attempts ?? 1) }, () => this.alive);
      },
      {
        connection: this.workerConnection,
        prefix: this.options.prefix,
        concurrency: this.timings.concurrency,
        lockDuration,
        stalledInterval: Math.min(lockDuration, this.timings.maintenanceIntervalMs),
        maxStalledCount: 2,
      },
    );
    this.worker.on('error', (error: Error) => {
      if (this.alive) this.options.logger.warn({ err: error.message }, 'job worker (bullmq) error');
    });
    const sweep = () => {
      if (this.sweeping || !this.alive) return;
      this.sweeping = this.tracker
        .sweep((id) => this.inspect(id), this.timings.orphanAfterMs)
        .catch((error: Error) => this.options.logger.warn({ err: error.message }, 'background job sweep failed'))
        .finally(() => (this.sweeping = undefined));
    };
    // A job failed by the stalled-job check (its process died too often) ends its row here.
    this.worker.on('failed', (job, error) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) void this.tracker.fail(job.data.jobId, error).catch(() => undefined);
    });
    sweep();
    this.sweepTimer = setInterval(sweep, this.timings.maintenanceIntervalMs);
    this.sweepTimer.unref();
    await this.worker.waitUntilReady();
  }

  private async inspect(jobId: string): Promise<QueueJobState> {
    const job = await this.queue.getJob(jobId);
    if (!job) return { state: 'missing' };
    const state = await job.getState();
    if (state === 'completed') return { state: 'finished' };
    if (state === 'failed') return { state: 'failed', reason: job.failedReason || 'failed' };
    if (state === 'unknown') return { state: 'missing' };
    return { state: 'pending' };
  }

  async stop(options: { abrupt?: boolean } = {}): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (options.abrupt) {
      this.alive = false;
      // Force: the jobs under way keep their lock until it expires, as after a crash.
      await this.worker?.close(true).catch(() => undefined);
      await this.queue.close().catch(() => undefined);
      this.workerConnection?.disconnect();
      this.connection.disconnect();
      return;
    }
    await this.sweeping;
    await this.worker?.close();
    this.alive = false;
    await this.queue.close();
    this.workerConnection?.disconnect();
    this.connection.disconnect();
  }
}
