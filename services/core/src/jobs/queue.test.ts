import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createTestContext } from '../testing/context.js';
import type { AppContext } from '../context.js';
import { BullMqJobQueue } from './bullmq-queue.js';
import { createJobQueue } from './index.js';
import { PgBossJobQueue } from './pgboss-queue.js';
import { DEFAULT_TIMINGS, PermanentJobError, type JobEvent, type JobQueue, type JobQueueTimings } from './types.js';

const TIMINGS: JobQueueTimings = {
  ...DEFAULT_TIMINGS,
  expireSeconds: 2,
  retryDelayMs: 100,
  pollingIntervalMs: 500,
  maintenanceIntervalMs: 1000,
  orphanAfterMs: 1000,
  concurrency: 1,
};

interface JobRow {
  status: string;
  progress: number;
  total: number | null;
  result: Record<string, unknown> | null;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}

async function row(context: AppContext, id: string): Promise<JobRow> {
  const [found] = (await context.dataSource.query('SELECT * FROM background_jobs WHERE id = $1', [id])) as JobRow[];
  return found!;
}

/** Polls until `check` holds (bounded), answering the row that satisfied it. */
async function waitFor(context: AppContext, id: string, check: (r: JobRow) => boolean, timeoutMs = 20_000): Promise<JobRow> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const current = await row(context, id);
    if (check(current)) return current;
    if (Date.now() > until) throw new Error(`job ${id} never reached the expected state; last: ${JSON.stringify(current)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const implementations: Array<{ name: string; enabled: boolean; make: (context: AppContext, tag: string) => JobQueue }> = [
  {
    name: 'pg-boss',
    enabled: true,
    make: (context, tag) => new PgBossJobQueue({ dataSource: context.dataSource, logger: context.logger, timings: TIMINGS, schema: `pgboss_${tag}`, stopTimeoutMs: 2000 }),
  },
  {
    name: 'bullmq',
    enabled: Boolean(process.env.REDIS_URL),
    make: (context, tag) =>
      new BullMqJobQueue({ dataSource: context.dataSource, logger: context.logger, timings: TIMINGS, redisUrl: process.env.REDIS_URL!, prefix: `gatehouse-test-${tag}`, stopTimeoutMs: 2000 }),
  },
];

describe('background job queue', function () {
  this.timeout(60_000);
  let context: AppContext;
  const running: JobQueue[] = [];

  before(async () => {
    context = await createTestContext({ overrides: { 'redis.url': undefined } });
  });

  afterEach(async () => {
    await Promise.allSettled(running.splice(0).map((queue) => queue.stop({ abrupt: true })));
  });

  it('is pg-boss without Redis', () => {
    expect(createJobQueue(context).kind).to.equal('pg-boss');
  });

  for (const impl of implementations) {
    describe(impl.name, function () {
      before(function () {
        if (!impl.enabled) this.skip();
      });

      const queue = () => {
        const made = impl.make(context, randomBytes(4).toString('hex'));
        running.push(made);
        return made;
      };

      it('moves a job from Queued to Running with its progress, then to Succeeded with its result', async () => {
        const jobs = queue();
        const events: JobEvent[] = [];
        jobs.onEvent((event) => void events.push(event));
        const release = gate();
        const halfway = gate();
        jobs.register('AdminReport', async ({ payload, progress, attempt }) => {
          await progress(1, 2);
          halfway.open();
          await release.opened;
          await progress(2, 2);
          return { echoed: payload.value, attempt };
        });
        const id = await jobs.enqueue('AdminReport', { value: 42 }, { userId: null });
        expect((await row(context, id)).status).to.equal('Queued');
        await jobs.start();
        await halfway.opened;
        const mid = await waitFor(context, id, (r) => r.status === 'Running' && r.progress === 1);
        expect(mid.total).to.equal(2);
        expect(mid.started_at).to.be.instanceOf(Date);
        release.open();
        const done = await waitFor(context, id, (r) => r.status === 'Succeeded');
        expect(done).to.include({ progress: 2, total: 2, error: null });
        expect(done.result).to.deep.equal({ echoed: 42, attempt: 1 });
        expect(done.finished_at).to.be.instanceOf(Date);
        expect(events.map((e) => e.kind)).to.deep.equal(['started', 'succeeded']);
        expect(events[1]!.job.result).to.deep.equal({ echoed: 42, attempt: 1 });
      });

      it('tries a transient failure again and succeeds', async () => {
        const jobs = queue();
        const attempts: number[] = [];
        jobs.register('AdminReport', async ({ attempt }) => {
          attempts.push(attempt);
          if (attempt === 1) throw new Error('database busy');
          return { ok: true };
        });
        await jobs.start();
        const id = await jobs.enqueue('AdminReport', {});
        const done = await waitFor(context, id, (r) => r.status === 'Succeeded');
        expect(done.result).to.deep.equal({ ok: true });
        expect(done.error).to.equal(null);
        expect(attempts).to.deep.equal([1, 2]);
      });

      it('ends Failed with the error after the last attempt of a job that always fails', async () => {
        const jobs = queue();
        const events: JobEvent[] = [];
        jobs.onEvent((event) => void events.push(event));
        let calls = 0;
        jobs.register('AdminReport', async () => {
          calls += 1;
          throw new Error(`no such application (call ${calls})`);
        });
        await jobs.start();
        const id = await jobs.enqueue('AdminReport', {});
        const failed = await waitFor(context, id, (r) => r.status === 'Failed');
        expect(failed.error).to.equal('no such application (call 3)');
        expect(failed.finished_at).to.be.instanceOf(Date);
        expect(calls).to.equal(3);
        expect(events.filter((e) => e.kind === 'failed')).to.have.length(1);
      });

      it('fails at once on a permanent error', async () => {
        const jobs = queue();
        let calls = 0;
        jobs.register('AdminReport', async () => {
          calls += 1;
          throw new PermanentJobError('the payload names no application');
        });
        await jobs.start();
        const id = await jobs.enqueue('AdminReport', {});
        const failed = await waitFor(context, id, (r) => r.status === 'Failed');
        expect(failed.error).to.equal('the payload names no application');
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(calls).to.equal(1);
      });

      it('takes up again, after a restart, a job whose process stopped mid-run', async () => {
        const tag = randomBytes(4).toString('hex');
        const first = impl.make(context, tag);
        running.push(first);
        const stuck = gate();
        const entered = gate();
        first.register('AdminReport', async () => {
          entered.open();
          await stuck.opened;
          return { from: 'first' };
        });
        await first.start();
        const id = await first.enqueue('AdminReport', {});
        await entered.opened;
        await waitFor(context, id, (r) => r.status === 'Running');
        await first.stop({ abrupt: true });
        // The dead process's handler finishing later changes nothing.
        stuck.open();
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await row(context, id)).status).to.equal('Running');

        const second = impl.make(context, tag);
        running.push(second);
        second.register('AdminReport', async ({ attempt }) => ({ from: 'second', attempt }));
        await second.start();
        const done = await waitFor(context, id, (r) => r.status === 'Succeeded', 30_000);
        expect(done.result).to.have.property('from', 'second');
      });

      it('fails a row whose queue job was lost', async () => {
        const jobs = queue();
        jobs.register('AdminReport', async () => ({}));
        const [orphan] = (await context.dataSource.query(
          `INSERT INTO background_jobs (type, status, created_at, started_at) VALUES ('AdminReport', 'Running', now() - interval '1 hour', now() - interval '1 hour') RETURNING id`,
        )) as Array<{ id: string }>;
        await jobs.start();
        const failed = await waitFor(context, orphan!.id, (r) => r.status === 'Failed');
        expect(failed.error).to.match(/lost by the queue/);
      });
    });
  }
});
