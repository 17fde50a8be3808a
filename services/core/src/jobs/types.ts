import type { JOB_TYPES } from '../domain/constants.js';

export type JobType = (typeof JOB_TYPES)[number];

/** What a handler is given for one attempt of one job. */
export interface JobRun<P = Record<string, unknown>> {
  /** The job's `background_jobs` row (and queue job) id. */
  jobId: string;
  type: JobType;
  payload: P;
  /** Who asked for it, if anyone: the user notified of its outcome. */
  userId: string | null;
  /** 1 for the first attempt. */
  attempt: number;
  /** Records how far the job got (`done` of `total` elements). */
  progress(done: number, total?: number | null): Promise<void>;
}

/** Answers the job's result (stored as the row's `result`), or throws to fail the attempt. */
export type JobHandler<P = Record<string, unknown>> = (run: JobRun<P>) => Promise<Record<string, unknown> | void>;

/** The background_jobs row as the queue's listeners see it. */
export interface TrackedJob {
  id: string;
  type: JobType;
  userId: string | null;
  payload: Record<string, unknown>;
  startedAt: Date | null;
  result: Record<string, unknown> | null;
  error: string | null;
}

export type JobEvent =
  | { kind: 'started'; job: TrackedJob }
  | { kind: 'succeeded'; job: TrackedJob }
  | { kind: 'failed'; job: TrackedJob };

export type JobListener = (event: JobEvent) => Promise<void> | void;

/** Where a queue job is, as the queue itself knows it. */
export type QueueJobState = { state: 'pending' } | { state: 'finished' } | { state: 'failed'; reason: string } | { state: 'missing' };

/**
 * A durable queue of background jobs: each job has its `background_jobs` row, moved from Queued
 * to Running to Succeeded or Failed as it goes; transient failures are tried again (3 attempts),
 * and a job whose process stopped mid-run is taken up again once its attempt expires.
 */
export interface JobQueue {
  /** `bullmq` (Redis configured) or `pg-boss` (on the product's database). */
  readonly kind: 'bullmq' | 'pg-boss';
  /** The handler of one job type; register every type before `start`. */
  register<P extends Record<string, unknown>>(type: JobType, handler: JobHandler<P>): void;
  /** Called as jobs start, succeed and fail (notifications); errors are logged, never thrown. */
  onEvent(listener: JobListener): void;
  /** Stores the job's row (Queued) and queues it; answers its id. */
  enqueue(type: JobType, payload: Record<string, unknown>, options?: { userId?: string | null }): Promise<string>;
  /** Starts the workers (this node runs jobs) and the sweep of jobs that ended without their row knowing. */
  start(): Promise<void>;
  /**
   * Stops taking jobs. Graceful (default): waits for the jobs under way, up to the timeout. `abrupt`
   * leaves the jobs under way as a killed process would: their rows stay Running until another
   * node takes them up again.
   */
  stop(options?: { abrupt?: boolean }): Promise<void>;
}

/** A failure no retry can fix (bad payload, missing data): the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface JobQueueTimings {
  /** Longest run of one attempt before another node may take the job up again (seconds). */
  expireSeconds: number;
  /** First delay before trying a failed attempt again (ms); doubled on each retry. */
  retryDelayMs: number;
  /** Attempts per job. */
  attempts: number;
  /** How often workers look for jobs on the database (ms; pg-boss). */
  pollingIntervalMs: number;
  /** How often the queue's maintenance and the row sweep run (ms). */
  maintenanceIntervalMs: number;
  /** A row Queued or Running without its queue job, older than this, is Failed by the sweep (ms). */
  orphanAfterMs: number;
  /** Jobs run at once on this node. */
  concurrency: number;
}

export const DEFAULT_TIMINGS: Omit<JobQueueTimings, 'expireSeconds'> = {
  retryDelayMs: 5000,
  attempts: 3,
  pollingIntervalMs: 2000,
  maintenanceIntervalMs: 60_000,
  orphanAfterMs: 5 * 60_000,
  concurrency: 2,
};
