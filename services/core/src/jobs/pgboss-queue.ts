import PgBoss from 'pg-boss';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { Logger } from '../logging/logger.js';
import { JobTracker, type QueuedJobData } from './tracker.js';
import type { JobHandler, JobListener, JobQueue, JobQueueTimings, JobType, QueueJobState } from './types.js';

/** One queue carries every job type; the row and the job data say which. */
export const PG_BOSS_QUEUE = 'gatehouse-jobs';
export const PG_BOSS_SCHEMA = 'pgboss';

export interface PgBossQueueOptions {
  dataSource: DataSource;
  logger: Logger;
  timings: JobQueueTimings;
  /** Schema of pg-boss's tables (default `pgboss`). */
  schema?: string;
  /** How long a graceful stop waits for the jobs under way (ms). */
  stopTimeoutMs?: number;
}

/**
 * Jobs on the product's own database with pg-boss (v10), on PostgreSQL and on the embedded PGlite
 * alike: pg-boss's statements go through the data source's connection pool. A job whose process
 * died stays `active` until its expiration; pg-boss's maintenance then fails that attempt and the
 * job is tried again on whichever node polls next.
 */
export class PgBossJobQueue implements JobQueue {
  readonly kind = 'pg-boss' as const;
  private readonly tracker: JobTracker;
  private readonly boss: PgBoss;
  private readonly timings: JobQueueTimings;
  private started?: Promise<void>;
  private workersStarted = false;
  private alive = true;
  private sweepTimer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;

  constructor(private readonly options: PgBossQueueOptions) {
    this.timings = options.timings;
    this.tracker = new JobTracker(options.dataSource, options.logger);
    const pool = (options.dataSource.driver as unknown as { master: Pool }).master;
    const db = {
      executeSql: async (text: string, values?: unknown[]) => {
        // An abrupt stop leaves the database as a killed process would: nothing more is written.
        if (!this.alive) throw new Error('the job queue was stopped');
        return pool.query(text, values);
      },
    };
    this.boss = new PgBoss({
      db,
      schema: options.schema ?? PG_BOSS_SCHEMA,
      maintenanceIntervalSeconds: Math.max(1, Math.round(this.timings.maintenanceIntervalMs / 1000)),
      // The queue's size is not reported anywhere: no state monitoring, no cron.
      schedule: false,
    });
    this.boss.on('error', (error: Error) => {
      if (this.alive) options.logger.warn({ err: error.message }, 'job queue (pg-boss) error');
    });
  }

  register<P extends Record<string, unknown>>(type: JobType, handler: JobHandler<P>): void {
    this.tracker.register(type, handler as unknown as JobHandler);
  }

  onEvent(listener: JobListener): void {
    this.tracker.onEvent(listener);
  }

  /** Creates pg-boss's schema and the queue (once, on first use). */
  private open(): Promise<void> {
    return (this.started ??= (async () => {
      await this.boss.start();
      const existing = await this.boss.getQueue(PG_BOSS_QUEUE);
      if (!existing) await this.boss.createQueue(PG_BOSS_QUEUE).catch(async (error: Error) => {
        // Another node created it meanwhile.
        if (!(await this.boss.getQueue(PG_BOSS_QUEUE))) throw error;
      });
    })());
  }

  async enqueue(type: JobType, payload: Record<string, unknown>, options: { userId?: string | null } = {}): Promise<string> {
    await this.open();
    const data = await this.tracker.insert(type, payload, options.userId ?? null);
    try {
      await this.boss.send(PG_BOSS_QUEUE, data as unknown as object, {
        id: data.jobId,
        retryLimit: this.timings.attempts - 1,
        retryDelay: Math.max(1, Math.round(this.timings.retryDelayMs / 1000)),
        retryBackoff: true,
        expireInSeconds: this.timings.expireSeconds,
      });
    } catch (error) {
      await this.tracker.fail(data.jobId, error);
      throw error;
    }
    return data.jobId;
  }

  async start(): Promise<void> {
    await this.open();
    if (this.workersStarted) return;
    this.workersStarted = true;
    for (let i = 0; i < this.timings.concurrency; i += 1) {
      await this.boss.work<QueuedJobData>(
        PG_BOSS_QUEUE,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: Math.max(0.5, this.timings.pollingIntervalMs / 1000) },
        async ([job]) => {
          if (!job) return;
          await this.tracker.run(
            job.data,
            { attempt: job.retryCount + 1, lastAttempt: job.retryCount >= job.retryLimit },
            () => this.alive,
          );
        },
      );
    }
    const sweep = () => {
      if (this.sweeping || !this.alive) return;
      this.sweeping = this.tracker
        .sweep((id) => this.inspect(id), this.timings.orphanAfterMs)
        .catch((error: Error) => this.options.logger.warn({ err: error.message }, 'background job sweep failed'))
        .finally(() => (this.sweeping = undefined));
    };
    sweep();
    this.sweepTimer = setInterval(sweep, this.timings.maintenanceIntervalMs);
    this.sweepTimer.unref();
  }

  private async inspect(jobId: string): Promise<QueueJobState> {
    const job = await this.boss.getJobById(PG_BOSS_QUEUE, jobId);
    if (!job) return { state: 'missing' };
    if (job.state === 'completed') return { state: 'finished' };
    if (job.state === 'failed' || job.state === 'cancelled') {
      const output = job.output as { message?: string; value?: { message?: string } } | null;
      return { state: 'failed', reason: output?.message ?? output?.value?.message ?? job.state };
    }
    return { state: 'pending' };
  }

  async stop(options: { abrupt?: boolean } = {}): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (!this.started) return;
    if (options.abrupt) {
      this.alive = false;
      await this.boss.stop({ graceful: false, wait: true, close: false }).catch(() => undefined);
      return;
    }
    await this.sweeping;
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: this.options.stopTimeoutMs ?? 10_000 });
    this.alive = false;
  }
}
