import type { User } from '@gatehouse/core';
import { expect } from 'chai';
import { after, before } from 'mocha';
import ExcelJS from 'exceljs';
import request from 'supertest';
import type { BackgroundJobs } from '../features/jobs/runtime.js';
import { bearer, binary, call, type AdminWorld, type CallOptions, type Persona } from './admin-world.js';
import { queuedJob, startTestJobs, type FinishedJob } from './jobs.js';

/**
 * Runs the world's background jobs for the tests of the enclosing `describe` (mocha hooks): only
 * where jobs are needed, so that the queue's polling stays out of the other tests' way.
 */
export function withBackgroundJobs(world: () => AdminWorld): void {
  let jobs: BackgroundJobs | undefined;
  before(async () => {
    jobs = await startTestJobs(world().context);
  });
  after(async () => {
    await jobs?.stop();
    jobs = undefined;
  });
}

/** A job's file, downloaded through `GET /filestorage/downloadExcel` as one of the world's callers (Administrator unless told). */
export async function downloadJobFile(w: AdminWorld, fileUrl: string, as: Persona = 'admin', user?: User) {
  return request(w.server)
    .get(`/api/v1/admin/filestorage/downloadExcel?url=${encodeURIComponent(fileUrl)}`)
    .set('Authorization', await bearer(w, as, user))
    .set('Accept-Language', 'en')
    .buffer(true)
    .parse(binary);
}

/** How far the job got, as its row says. */
export async function jobProgress(w: AdminWorld, jobId: string): Promise<{ progress: number; total: number | null }> {
  const [row] = (await w.context.dataSource.query('SELECT progress, total FROM background_jobs WHERE id = $1', [jobId])) as Array<{ progress: number; total: number | null }>;
  return row!;
}

/**
 * Starts an export (`GET path`, which must answer 202 `{ jobId }`) as one of the world's callers,
 * waits for its job, which must succeed, and downloads its file as that caller.
 */
export async function exportFile(w: AdminWorld, path: string, options: CallOptions = {}): Promise<{ job: FinishedJob; file: request.Response }> {
  const job = await queuedJob(w.context, await call(w, 'get', path, options));
  expect(job.status, job.error ?? '').to.equal('Succeeded');
  const file = await downloadJobFile(w, job.result!.fileUrl as string, options.as, options.user);
  expect(file.status).to.equal(200);
  return { job, file };
}

export interface JobNotification {
  type: string;
  description: string;
  data: Record<string, unknown>;
}

/** The user's newest notification of a job type that `matches`, once written (it follows the job's end). */
export async function jobNotification(
  w: AdminWorld,
  userId: string,
  type: string,
  matches: (notification: JobNotification) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<JobNotification> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = (await w.context.dataSource.query('SELECT type, description, data FROM notifications WHERE user_id = $1 AND type = $2 ORDER BY created_at DESC', [
      userId,
      type,
    ])) as JobNotification[];
    const found = rows.find(matches);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no matching ${type} notification for ${userId}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The first sheet of a workbook: its name and its rows as cell values (the first row: the headers). */
export async function firstSheet(file: Buffer): Promise<{ name: string; rows: unknown[][] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: sheet.name, rows };
}

/** How many background jobs there are (a refused request queues none). */
export async function jobCount(w: AdminWorld): Promise<number> {
  const [row] = (await w.context.dataSource.query('SELECT count(*) AS count FROM background_jobs')) as Array<{ count: string }>;
  return Number(row!.count);
}
