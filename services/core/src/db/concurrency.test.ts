import { expect } from 'chai';
import type { Pool } from 'pg';
import type { AppContext } from '../context.js';
import { createTestContext } from '../testing/context.js';

// Many requests query at once, on PostgreSQL and on the embedded PGlite alike (one session behind
// a socket server): each must get the answer to its own statement, and a transaction rolled back
// must take nothing of another request's with it.
describe('the database under concurrent requests', () => {
  let context: AppContext;

  before(async () => {
    // The product's default pool size.
    context = await createTestContext({ overrides: { 'database.poolSize': 10 } });
    await context.dataSource.query('CREATE TABLE IF NOT EXISTS concurrency_probe (v integer NOT NULL)');
  });

  after(async () => {
    await context.dataSource.query('DROP TABLE IF EXISTS concurrency_probe');
  });

  it('answers 400 parameterised statements at once, among transactions, each with its own values', async () => {
    const ask = (i: number) => context.dataSource.query<Array<{ v: number; w: string }>>('SELECT $1::int AS v, $2::text AS w', [i, `row ${i}`]);
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        // Every fourth in a transaction of its own, as a request that writes would be.
        i % 4 === 0 ? context.dataSource.transaction((manager) => manager.query<Array<{ v: number; w: string }>>('SELECT $1::int AS v, $2::text AS w', [i, `row ${i}`])) : ask(i),
      ),
    );
    answers.forEach(([row], i) => expect(row).to.deep.equal({ v: i, w: `row ${i}` }));
  });

  it('keeps its answers straight when statements and explicit transactions of the pool race', async () => {
    const pool = (context.dataSource.driver as unknown as { master: Pool }).master;
    await context.dataSource.query('TRUNCATE concurrency_probe');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, async (_, i) => {
        if (i % 2 === 0) return pool.query('INSERT INTO concurrency_probe (v) VALUES ($1)', [i]);
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('INSERT INTO concurrency_probe (v) VALUES ($1)', [-i]);
          await client.query('ROLLBACK');
        } finally {
          client.release();
        }
      }),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).to.deep.equal([]);
    const rows = await context.dataSource.query<Array<{ v: number }>>('SELECT v FROM concurrency_probe ORDER BY v');
    expect(rows.map((row) => row.v)).to.deep.equal(Array.from({ length: 100 }, (_, k) => k * 2));
  });

  it('keeps every committed write while other transactions roll back beside them', async () => {
    await context.dataSource.query('TRUNCATE concurrency_probe');
    await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        i % 2
          ? context.dataSource
              .transaction(async (manager) => {
                await manager.query('INSERT INTO concurrency_probe (v) VALUES ($1)', [-i]);
                throw new Error('rolled back on purpose');
              })
              .catch((error: Error) => expect(error.message).to.equal('rolled back on purpose'))
          : context.dataSource.query('INSERT INTO concurrency_probe (v) VALUES ($1)', [i]),
      ),
    );
    const rows = await context.dataSource.query<Array<{ v: number }>>('SELECT v FROM concurrency_probe ORDER BY v');
    expect(rows.map((row) => row.v)).to.deep.equal(Array.from({ length: 200 }, (_, k) => k * 2));
  });
});
