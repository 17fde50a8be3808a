import { createTestContext } from '@gatehouse/core/testing';
import type { AppContext } from '@gatehouse/core';
import { expect } from 'chai';
import { LOG_TABLES, purgeLogs } from './repository.js';
import { startLogRetention } from './retention.js';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** Rows in each log table: `old` of them 400 days old, `recent` of them 10 days old. */
async function seed(context: AppContext, { old, recent }: { old: number; recent: number }): Promise<void> {
  for (const [count, date] of [
    [old, daysAgo(400)],
    [recent, daysAgo(10)],
  ] as const) {
    const series = [count, date];
    await context.dataSource.query(`INSERT INTO authentication_logs (date, user_name, result) SELECT $2::timestamptz, 'u' || i, 'Success' FROM generate_series(1, $1::int) i`, series);
    await context.dataSource.query(`INSERT INTO system_logs (date, operation) SELECT $2::timestamptz, 'CreateUser' FROM generate_series(1, $1::int) i`, series);
    await context.dataSource.query(`INSERT INTO session_logs (date, user_name, application_name) SELECT $2::timestamptz, 'u' || i, 'crm' FROM generate_series(1, $1::int) i`, series);
    await context.dataSource.query(`INSERT INTO external_api_access_logs (date, api_entry) SELECT $2::timestamptz, 'GetRoles' FROM generate_series(1, $1::int) i`, series);
  }
}

/** Rows per table, and how many of them are older than a year. */
async function counts(context: AppContext): Promise<Record<string, { all: number; older: number }>> {
  const result: Record<string, { all: number; older: number }> = {};
  for (const table of Object.values(LOG_TABLES)) {
    const [row] = await context.dataSource.query(
      `SELECT count(*)::int AS all, count(*) FILTER (WHERE date < now() - interval '365 days')::int AS older FROM ${table}`,
    );
    result[table] = { all: row.all, older: row.older };
  }
  return result;
}

const each = (all: number, older: number) => Object.fromEntries(Object.values(LOG_TABLES).map((table) => [table, { all, older }]));

describe('log retention', () => {
  describe('purgeLogs', () => {
    let context: AppContext;

    beforeEach(async () => {
      context = await createTestContext();
    });

    it('deletes the rows older than the retention from every log table, in batches, and keeps the others', async () => {
      await seed(context, { old: 7, recent: 3 });

      const result = await purgeLogs(context.dataSource, { retentionDays: 365, batchSize: 3 });

      expect(result).to.deep.equal({ deleted: { authentication: 7, system: 7, session: 7, externalApiAccess: 7 }, skipped: false });
      expect(await counts(context)).to.deep.equal(each(3, 0));
      // Nothing is left to do.
      expect((await purgeLogs(context.dataSource, { retentionDays: 365 })).deleted).to.deep.equal({ authentication: 0, system: 0, session: 0, externalApiAccess: 0 });
    });

    it('counts the days back from the database’s clock: a longer retention keeps the rows a shorter one deletes', async () => {
      await seed(context, { old: 2, recent: 2 });

      expect((await purgeLogs(context.dataSource, { retentionDays: 500 })).deleted.authentication).to.equal(0);
      expect((await purgeLogs(context.dataSource, { retentionDays: 5 })).deleted.authentication).to.equal(4);
      expect(await counts(context)).to.deep.equal(each(0, 0));
    });

    it('deletes each old row once when two purges run at the same time', async () => {
      await seed(context, { old: 25, recent: 5 });

      const runs = await Promise.all([
        purgeLogs(context.dataSource, { retentionDays: 365, batchSize: 4 }),
        purgeLogs(context.dataSource, { retentionDays: 365, batchSize: 4 }),
      ]);

      // Each table's old rows are gone, counted once between the two runs (one of them may have left the work to the other).
      for (const kind of Object.keys(LOG_TABLES) as Array<keyof typeof LOG_TABLES>) {
        expect(runs[0]!.deleted[kind] + runs[1]!.deleted[kind], kind).to.equal(25);
      }
      expect(await counts(context)).to.deep.equal(each(5, 0));
    });

    it('leaves the purge to the node holding the lock', async function () {
      // PGlite runs one session for every connection: a lock taken there is this run's own.
      if (context.pglite) this.skip();
      await seed(context, { old: 3, recent: 0 });
      const other = context.dataSource.createQueryRunner();
      await other.connect();
      try {
        await other.query('SELECT pg_advisory_lock(7418220047::bigint)');
        const result = await purgeLogs(context.dataSource, { retentionDays: 365 });
        expect(result.skipped).to.equal(true);
        expect((await counts(context)).authentication_logs).to.deep.equal({ all: 3, older: 3 });
      } finally {
        await other.query('SELECT pg_advisory_unlock(7418220047::bigint)');
        await other.release();
      }
      expect((await purgeLogs(context.dataSource, { retentionDays: 365 })).deleted.authentication).to.equal(3);
    });

    it('stops between batches when asked', async () => {
      await seed(context, { old: 10, recent: 0 });
      let batches = 0;
      const result = await purgeLogs(context.dataSource, { retentionDays: 365, batchSize: 2, shouldStop: () => batches++ >= 2 });
      expect(result.deleted.authentication).to.equal(4);
      expect((await counts(context)).authentication_logs.all).to.equal(6);
    });
  });

  describe('startLogRetention', () => {
    it('purges every interval until stopped', async () => {
      const ticking = await createTestContext({ overrides: { 'logs.retentionDays': 365, 'logs.purgeIntervalMs': 1000 } });
      await seed(ticking, { old: 4, recent: 1 });
      const retention = startLogRetention(ticking);
      try {
        const deadline = Date.now() + 10_000;
        // A purge goes through the tables one after another: wait for the last, not the first.
        const purged = async () => Object.values(await counts(ticking)).every(({ all }) => all === 1);
        while (!(await purged()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
        expect(await counts(ticking)).to.deep.equal(each(1, 0));
      } finally {
        await retention.stop();
      }
      // Stopped: new old rows stay.
      await seed(ticking, { old: 1, recent: 0 });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await counts(ticking)).authentication_logs).to.deep.equal({ all: 2, older: 1 });
    });

    it('keeps every row with a retention of 0 days', async () => {
      const forever = await createTestContext({ overrides: { 'logs.retentionDays': 0, 'logs.purgeIntervalMs': 1000 } });
      await seed(forever, { old: 2, recent: 0 });
      const retention = startLogRetention(forever);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await retention.stop();
      expect((await counts(forever)).authentication_logs.all).to.equal(2);
    });
  });
});
