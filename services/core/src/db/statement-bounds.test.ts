import net from 'node:net';
import { expect } from 'chai';
import { isDatabaseUnavailable } from '../errors/database-errors.js';
import { createTestContext, createTestDatabase } from '../testing/index.js';
import { withoutStatementBounds } from './data-source.js';

const BOUND_MS = 500;

/** A TCP relay in front of the database that a test can mute: bytes either way are then dropped, as on a dead path. */
async function startMutableRelay(targetUrl: string) {
  const target = new URL(targetUrl);
  let muted = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('close', () => sockets.delete(from));
      from.on('error', () => from.destroy());
      from.on('close', () => to.destroy());
      from.on('data', (chunk: Buffer) => muted || to.write(chunk));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    mute: (value: boolean) => (muted = value),
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('statement bounds of the data source', function () {
  this.timeout(120_000);

  it('fails a statement that outlasts DATABASE_STATEMENT_TIMEOUT_MS, as the database being unavailable, without waiting for it', async () => {
    // One connection: every statement of the test goes through the same one.
    const context = await createTestContext({ overrides: { 'database.statementTimeoutMs': BOUND_MS, 'database.poolSize': 1 } });
    const started = Date.now();
    const error = await context.dataSource.query('SELECT pg_sleep(4)').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, 'the statement failed').to.be.instanceOf(Error);
    expect(isDatabaseUnavailable(error), (error as Error).message).to.equal(true);
    expect(Date.now() - started, 'the four seconds of the statement were not waited for').to.be.below(4000);
  });

  it('runs migrations unbounded on one connection, which gets its bound back afterwards', async () => {
    const context = await createTestContext({ overrides: { 'database.statementTimeoutMs': BOUND_MS, 'database.poolSize': 1 } });
    const inside = await withoutStatementBounds(context.dataSource, async (runner) => {
      await runner.query('SELECT pg_sleep(2.5)');
      return ((await runner.query('SHOW statement_timeout')) as Array<{ statement_timeout: string }>)[0]!.statement_timeout;
    });
    expect(inside).to.equal('0');
    if (!context.pglite) {
      // PGlite has no server-side timers: there the driver's bound alone applies.
      const [after] = (await context.dataSource.query('SHOW statement_timeout')) as Array<{ statement_timeout: string }>;
      expect(after!.statement_timeout, 'the session bound is back').to.equal(`${BOUND_MS}ms`);
    }
    const error = await context.dataSource.query('SELECT pg_sleep(4)').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(error), String(error)).to.equal(true);
  });

  it('closes a connection whose answer never came, so the next statement gets a fresh one', async () => {
    const database = await createTestDatabase();
    const relay = await startMutableRelay(database.url);
    try {
      const context = await createTestContext({ migrate: false, overrides: { 'database.url': relay.url, 'database.statementTimeoutMs': BOUND_MS, 'database.poolSize': 1 } });
      expect(await context.dataSource.query('SELECT 1 AS one')).to.deep.equal([{ one: 1 }]);
      relay.mute(true);
      const error = await context.dataSource.query('SELECT 2 AS two').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(error), String(error)).to.equal(true);
      // The path works again, but the statement it swallowed will never be answered on that connection.
      relay.mute(false);
      expect(await context.dataSource.query('SELECT 3 AS three')).to.deep.equal([{ three: 3 }]);
    } finally {
      await relay.stop();
      await database.drop();
    }
  });
});
