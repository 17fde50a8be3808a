import type { DataSource } from 'typeorm';
import type { Logger } from '../logging/logger.js';
import { jobTraceCarrier, traceJobRun, type JobTraceCarrier } from '../telemetry/jobs.js';
import { recordErrorOnActiveSpan } from '../telemetry/tracing.js';
import {
  PermanentJobError,
  type JobEvent,
  type JobHandler,
  type JobListener,
  type JobType,
  type QueueJobState,
  type TrackedJob,
} from './types.js';

interface JobRow {
  id: string;
  type: JobType;
  user_id: string | null;
  payload: Record<string, unknown>;
  started_at: Date | null;
  result: Record<string, unknown> | null;
  error: string | null;
  created_at: Date;
}

const RETURNING = 'RETURNING id, type, user_id, payload, started_at, result, error, created_at';
/** The error column keeps a readable message, not a stack. */
const ERROR_MAX = 2000;

const tracked = (row: JobRow): TrackedJob => ({
  id: row.id,
  type: row.type,
  userId: row.user_id,
  payload: row.payload,
  startedAt: row.started_at,
  result: row.result,
  error: row.error,
});

/** What the queue carries for one job: the row holds the rest. */
export interface QueuedJobData {
  jobId: string;
  type: JobType;
  userId: string | null;
  payload: Record<string, unknown>;
  /** The trace that queued the job, when tracing is on: its runs link to it. */
  trace?: JobTraceCarrier;
}

export interface AttemptInfo {
  attempt: number;
  lastAttempt: boolean;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, ERROR_MAX) || 'unknown error';

/**
 * The `background_jobs` rows behind a queue, and the running of one attempt: the part both queue
 * implementations share. Row updates are conditional on the row's status, so a job delivered twice
 * (or after it was failed by the sweep) does nothing twice.
 */
export class JobTracker {
  private readonly handlers = new Map<JobType, JobHandler>();
  private readonly listeners: JobListener[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
  ) {}

  register(type: JobType, handler: JobHandler): void {
    if (this.handlers.has(type)) throw new Error(`a handler is already registered for ${type}`);
    this.handlers.set(type, handler);
  }

  onEvent(listener: JobListener): void {
    this.listeners.push(listener);
  }

  async insert(type: JobType, payload: Record<string, unknown>, userId: string | null): Promise<QueuedJobData> {
    const [row] = (await this.dataSource.query(
      `INSERT INTO background_jobs (type, user_id, payload) VALUES ($1, $2, $3) RETURNING id`,
      [type, userId, JSON.stringify(payload)],
    )) as Array<{ id: string }>;
    const data: QueuedJobData = { jobId: row!.id, type, userId, payload };
    const trace = jobTraceCarrier();
    if (trace) data.trace = trace;
    return data;
  }

  /** Fails the job's row (unless it already ended) and tells the listeners. */
  async fail(jobId: string, error: unknown): Promise<void> {
    const rows = (await this.dataSource.query(
      `UPDATE background_jobs SET status = 'Failed', error = $2, finished_at = now() WHERE id = $1 AND status IN ('Queued', 'Running') ${RETURNING}`,
      [jobId, message(error)],
    )) as [JobRow[], number];
    const row = rows[0][0];
    if (row) await this.emit({ kind: 'failed', job: tracked(row) });
  }

  /**
   * Runs one attempt of a job. Answers normally when the job is over (succeeded, failed for good,
   * or nothing to do); throws when the queue should try it again. `alive` false means the node was
   * stopped abruptly: nothing more is written.
   */
  run(data: QueuedJobData, attempt: AttemptInfo, alive: () => boolean): Promise<void> {
    return traceJobRun(data, attempt.attempt, () => this.runAttempt(data, attempt, alive));
  }

  private async runAttempt(data: QueuedJobData, attempt: AttemptInfo, alive: () => boolean): Promise<void> {
    const handler = this.handlers.get(data.type);
    if (!handler) {
      await this.fail(data.jobId, `no handler for jobs of type ${data.type}`);
      return;
    }
    const started = (await this.dataSource.query(
      `UPDATE background_jobs SET status = 'Running', started_at = COALESCE(started_at, now()), progress = 0, error = NULL
       WHERE id = $1 AND status IN ('Queued', 'Running') ${RETURNING}`,
      [data.jobId],
    )) as [JobRow[], number];
    const row = started[0][0];
    // Ended already (a second delivery, or failed by the sweep), or its row is gone.
    if (!row) return;
    await this.emit({ kind: 'started', job: tracked(row) });
    let result: Record<string, unknown> | void;
    try {
      result = await handler({
        jobId: data.jobId,
        type: data.type,
        payload: data.payload,
        userId: data.userId,
        attempt: attempt.attempt,
        progress: async (done, total) => {
          if (!alive()) return;
          await this.dataSource.query(
            `UPDATE background_jobs SET progress = $2, total = COALESCE($3, total) WHERE id = $1 AND status = 'Running'`,
            [data.jobId, Math.max(0, Math.trunc(done)), total === undefined || total === null ? null : Math.max(0, Math.trunc(total))],
          );
        },
      });
    } catch (error) {
      // On the attempt's span even when the job fails for good here, without throwing.
      recordErrorOnActiveSpan(error);
      if (!alive()) throw error;
      if (attempt.lastAttempt || error instanceof PermanentJobError) {
        await this.fail(data.jobId, error);
        return;
      }
      this.logger.warn({ jobId: data.jobId, type: data.type, attempt: attempt.attempt, err: message(error) }, 'background job attempt failed: tried again');
      await this.dataSource.query(`UPDATE background_jobs SET status = 'Queued', error = $2 WHERE id = $1 AND status = 'Running'`, [
        data.jobId,
        message(error),
      ]);
      throw error;
    }
    if (!alive()) return;
    const done = (await this.dataSource.query(
      `UPDATE background_jobs SET status = 'Succeeded', result = $2, progress = COALESCE(total, progress), error = NULL, finished_at = now()
       WHERE id = $1 AND status = 'Running' ${RETURNING}`,
      [data.jobId, result ? JSON.stringify(result) : null],
    )) as [JobRow[], number];
    const finished = done[0][0];
    if (finished) await this.emit({ kind: 'succeeded', job: tracked(finished) });
  }

  /**
   * Fails the rows still Queued or Running whose queue job ended or vanished without them knowing
   * (retries exhausted by expiry after a crash, a queue emptied by hand). Only rows older than
   * `orphanAfterMs` are looked at, so a job being enqueued right now is left alone.
   */
  async sweep(inspect: (jobId: string) => Promise<QueueJobState>, orphanAfterMs: number): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM background_jobs WHERE status IN ('Queued', 'Running') AND created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT 500`,
      [orphanAfterMs / 1000],
    )) as Array<{ id: string }>;
    let failed = 0;
    for (const { id } of rows) {
      const state = await inspect(id);
      if (state.state === 'pending') continue;
      const reason =
        state.state === 'failed'
          ? `The job stopped and could not be completed: ${state.reason}`
          : state.state === 'finished'
            ? 'The job ended without recording its result.'
            : 'The job was lost by the queue before it could run.';
      await this.fail(id, reason);
      failed += 1;
    }
    return failed;
  }

  private async emit(event: JobEvent): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(event);
      } catch (error) {
        this.logger.warn({ jobId: event.job.id, kind: event.kind, err: message(error) }, 'background job listener failed');
      }
    }
  }
}
