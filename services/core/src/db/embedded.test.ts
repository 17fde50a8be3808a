import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { isDatabaseUnavailable } from '../errors/database-errors.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.js';

async function query(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Retries `sql` until the database answers (at most 30 s): how a pool sees a restart. */
async function whenBack(url: string, sql: string): Promise<{ rows: Array<Record<string, unknown>>; refused: number }> {
  let refused = 0;
  for (const deadline = Date.now() + 30_000; ; ) {
    try {
      return { rows: await query(url, sql), refused };
    } catch (error) {
      expect(isDatabaseUnavailable(error), (error as Error).message).to.equal(true);
      refused++;
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('embedded database in its own thread', function () {
  this.timeout(120_000);
  let dir: string;
  let db: EmbeddedPostgres | undefined;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-embedded-'));
  });
  afterEach(async () => {
    await db?.stop();
    db = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs queries off the main thread: its event loop keeps turning during a long query', async () => {
    db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), maxConnections: 4 });
    let last = Date.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      longestGap = Math.max(longestGap, Date.now() - last);
      last = Date.now();
    }, 5);
    const started = Date.now();
    try {
      expect(await query(db.url, 'SELECT count(*)::int AS n FROM generate_series(1, 3000000)')).to.deep.equal([{ n: 3_000_000 }]);
    } finally {
      clearInterval(ticker);
    }
    const took = Date.now() - started;
    // In the same thread, the query's WebAssembly would hold the loop for its whole length.
    expect(longestGap, `longest pause ${longestGap} ms during a ${took} ms query`).to.be.below(took / 2);
  });

  it('after a crash, refuses connections (never hangs), comes back on the same URL and keeps every committed row', async () => {
    db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), maxConnections: 4 });
    await query(db.url, 'CREATE TABLE kept (n int)');
    await query(db.url, 'INSERT INTO kept SELECT generate_series(1, 1000)');
    await db.crash();

    const { rows, refused } = await whenBack(db.url, 'SELECT count(*)::int AS n FROM kept');
    expect(refused, 'connections were refused while it restarted').to.be.greaterThan(0);
    expect(rows).to.deep.equal([{ n: 1000 }]);
    expect(db.restarts).to.equal(1);
  });

  it('stops cleanly: a later start on the same folder reads what was written', async () => {
    db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), maxConnections: 4 });
    await query(db.url, 'CREATE TABLE kept (n int)');
    await query(db.url, 'INSERT INTO kept VALUES (42)');
    await db.stop();
    db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), maxConnections: 4 });
    expect(await query(db.url, 'SELECT n FROM kept')).to.deep.equal([{ n: 42 }]);
    expect(db.restarts).to.equal(0);
  });

  it('does not restart an in-memory database whose thread ended: its data died with it', async () => {
    const crashes: Array<{ restarting: boolean }> = [];
    db = await startEmbeddedPostgres({ maxConnections: 4, onCrash: (detail) => crashes.push(detail) });
    await db.crash();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(crashes).to.have.length(1);
    expect(crashes[0]!.restarting).to.equal(false);
    const refused = await query(db.url, 'SELECT 1').then(
      () => false,
      (error: unknown) => isDatabaseUnavailable(error),
    );
    expect(refused).to.equal(true);
    expect(db.restarts).to.equal(0);
  });
});
