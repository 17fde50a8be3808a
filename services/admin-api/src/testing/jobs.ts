import { randomBytes } from 'node:crypto';
import type { ImportResult } from '@gatehouse/contracts';
import type { AppContext } from '@gatehouse/core';
import { expect } from 'chai';
import type request from 'supertest';
import { startBackgroundJobs } from '../app.js';
import type { BackgroundJobs } from '../features/jobs/runtime.js';
import type { AdminContext } from '../admin-context.js';

/** The jobs that have ended on a context whose jobs the tests run, and the tests waiting for others. */
interface Endings {
  ended: Set<string>;
  waiting: Map<string, () => void>;
}

const endingsOf = new WeakMap<AppContext, Endings>();

/**
 * Starts the context's background jobs as the product does, with timings short enough for tests;
 * stop them in `after`. The end of each job is told to finishedJob, which then need not poll the
 * database while the job runs (the embedded database serves every connection on one session, where
 * polling statements and the job's get in each other's way).
 */
export async function startTestJobs(context: AdminContext): Promise<BackgroundJobs> {
  const jobs = await startBackgroundJobs(context, {
    timings: { pollingIntervalMs: 500, maintenanceIntervalMs: 1000, retryDelayMs: 100 },
    prefix: `gatehouse-test-${randomBytes(6).toString('hex')}`,
    // Webhook deliveries go out only when a delivery is sent again (or a test drains them): none in
    // the background between a test's calls.
    webhooks: { pollIntervalMs: 3_600_000 },
  });
  const endings: Endings = { ended: new Set(), waiting: new Map() };
  endingsOf.set(context, endings);
  // Listeners run in turn: the job's notification has been written by the time this one runs.
  jobs.queue.onEvent((event) => {
    if (event.kind === 'started') return;
    endings.ended.add(event.job.id);
    endings.waiting.get(event.job.id)?.();
  });
  return jobs;
}

/** Resolves when the job has ended on this node, or after `timeoutMs` (then the database is asked). */
function ending(context: AppContext, jobId: string, timeoutMs: number): Promise<void> {
  const endings = endingsOf.get(context);
  if (!endings || endings.ended.has(jobId)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    endings.waiting.set(jobId, () => {
      clearTimeout(timer);
      endings.waiting.delete(jobId);
      resolve();
    });
  });
}

/** A `background_jobs` row once the job has ended. */
export interface FinishedJob {
  id: string;
  type: string;
  status: 'Succeeded' | 'Failed';
  userId: string | null;
  payload: Record<string, unknown>;
  result: Record<string, unknown> | null;
  error: string | null;
}

/**
 * Waits until the job has succeeded or failed, at most `timeoutMs`, and answers its row. The bound
 * only keeps a stuck job from hanging the run (a test's own timeout comes first): how fast a job
 * runs is the benchmarks' business, and a shared machine may run a large export slowly.
 */
export async function finishedJob(context: AppContext, jobId: string, timeoutMs = 100_000): Promise<FinishedJob> {
  const until = Date.now() + timeoutMs;
  await ending(context, jobId, timeoutMs);
  for (;;) {
    const [row] = (await context.dataSource.query('SELECT id, type, status, user_id, payload, result, error FROM background_jobs WHERE id = $1', [jobId])) as Array<{
      id: string;
      type: string;
      status: string;
      user_id: string | null;
      payload: Record<string, unknown>;
      result: Record<string, unknown> | null;
      error: string | null;
    }>;
    if (row && (row.status === 'Succeeded' || row.status === 'Failed')) {
      return { id: row.id, type: row.type, status: row.status, userId: row.user_id, payload: row.payload, result: row.result, error: row.error };
    }
    if (Date.now() > until) throw new Error(`job ${jobId} is still ${String(row?.status)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The job an upload queued: the answer must be 202 `{ jobId }`; answers the job once it has ended. */
export async function queuedJob(context: AppContext, res: request.Response): Promise<FinishedJob> {
  expect(res.status, JSON.stringify(res.body)).to.equal(202);
  expect(Object.keys(res.body)).to.deep.equal(['jobId']);
  return finishedJob(context, res.body.jobId as string);
}

/** The result of the import an upload queued: the answer must be 202 `{ jobId }`, and the job must succeed. */
export async function importResult(context: AppContext, res: request.Response): Promise<ImportResult> {
  const job = await queuedJob(context, res);
  expect(job.status, job.error ?? '').to.equal('Succeeded');
  return job.result as ImportResult;
}

/**
 * Runs `statement` (SQL) at the moment a job of the user starts, in the statement that marks it
 * Running: what happens between an upload and its job, without a race. `hold` keeps the user's jobs
 * from starting at all: their rows stay Queued, and are deleted when it is undone, so that the queue
 * drops them whenever it reaches them. Answers the function that undoes it.
 */
export async function whenJobStarts(context: AppContext, userId: string, options: { statement?: string; hold?: boolean }): Promise<() => Promise<void>> {
  const name = `job_start_${randomBytes(4).toString('hex')}`;
  const db = context.dataSource;
  await db.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status = 'Running' AND OLD.status = 'Queued' AND NEW.user_id = '${userId}' THEN
        ${options.statement ?? ''}
        ${options.hold ? 'RETURN NULL;' : ''}
      END IF;
      RETURN NEW;
    END $$`);
  await db.query(`CREATE TRIGGER ${name} BEFORE UPDATE ON background_jobs FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return async () => {
    if (options.hold) await db.query(`DELETE FROM background_jobs WHERE user_id = $1 AND status = 'Queued'`, [userId]);
    await db.query(`DROP TRIGGER ${name} ON background_jobs`);
    await db.query(`DROP FUNCTION ${name}()`);
  };
}
