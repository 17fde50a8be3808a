import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type { DataSource } from 'typeorm';
import { createLogger } from '../logging/logger.js';
import { sharedTestContext } from '../testing/index.js';
import { createMetrics, measureClient, statementOperation, ScrapeSource } from './index.js';

/** A logger whose lines are kept, to count what was said. */
function recordingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) } as unknown as NodeJS.WritableStream;
  return { logger: createLogger('info', stream), lines };
}

/** A data source whose pool never answers a statement (a database out of reach), and lends no connection. */
function silentDatabase(): DataSource {
  const pool = Object.assign(new EventEmitter(), { totalCount: 3, idleCount: 1, waitingCount: 2, options: { max: 5 }, query: () => new Promise(() => undefined) });
  return { driver: { master: pool } } as unknown as DataSource;
}

describe('metrics', () => {
  it('names the operation of a statement by its first keyword, never by its text', () => {
    expect(statementOperation('SELECT 1')).to.equal('select');
    expect(statementOperation({ text: '  insert into t values ($1)' })).to.equal('insert');
    expect(statementOperation('START TRANSACTION')).to.equal('transaction');
    expect(statementOperation('WITH x AS (SELECT 1) SELECT * FROM x')).to.equal('other');
    expect(statementOperation(undefined)).to.equal('other');
  });

  it('times the statements of the context’s pool, by operation', async () => {
    const context = await sharedTestContext();
    const count = async () => {
      const metric = await context.metrics.statementDuration.get();
      return metric.values.find((v) => v.metricName === 'gatehouse_db_statement_duration_seconds_count' && v.labels.operation === 'select')?.value ?? 0;
    };
    const before = await count();
    await context.dataSource.query('SELECT 1');
    await context.dataSource.transaction((em) => em.query('SELECT 2'));
    expect(await count()).to.equal(before + 2);
  });

  it('costs the statement hook about a microsecond, callbacks and promises alike', async () => {
    let observed = 0;
    const client = { query: (_text: string, callback?: (error: unknown, result: unknown) => void) => (callback ? callback(null, {}) : Promise.resolve({})) };
    const bare = { query: client.query };
    measureClient(client, () => void (observed += 1));
    const rounds = 50_000;
    const time = async (target: typeof client) => {
      const started = performance.now();
      for (let i = 0; i < rounds; i++) {
        await target.query('SELECT id FROM users WHERE id = $1');
        void target.query('UPDATE users SET x = 1', () => undefined);
      }
      return performance.now() - started;
    };
    await time(bare);
    const without = await time(bare);
    const withHook = await time(client);
    expect(observed).to.equal(2 * rounds);
    const perStatementUs = ((withHook - without) * 1000) / (2 * rounds);
    // A statement's round trip takes a hundred microseconds or more; the hook must stay far below.
    expect(perStatementUs, `${perStatementUs.toFixed(2)} µs per statement`).to.be.below(10);
  });

  it('answers a scrape while the database does not: its gauges are left out, the source reported down, logged once', async () => {
    const { logger, lines } = recordingLogger();
    const metrics = createMetrics({ dataSource: silentDatabase(), logger, scrapeTimeoutMs: 100 });
    const started = Date.now();
    const first = await metrics.registry.metrics();
    expect(Date.now() - started).to.be.below(1000);
    expect(first).to.contain('gatehouse_metrics_source_up{source="database"} 0');
    expect(first).to.contain('gatehouse_db_pool_connections{state="in_use"} 2');
    expect(first).to.contain('gatehouse_db_pool_waiting_requests 2');
    expect(first).to.not.match(/^gatehouse_job_queue_waiting_jobs\{/m);
    expect(first).to.not.match(/^gatehouse_mail_outbox_pending_messages /m);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await metrics.registry.metrics();
    expect(lines.filter((line) => line.msg.startsWith('metrics source unavailable'))).to.have.length(1);
  });

  it('reads a source once per scrape, waits for a slow read instead of starting another, and says when it is back', async () => {
    const { logger, lines } = recordingLogger();
    let reads = 0;
    let answer: (value: number) => void = () => undefined;
    const source = new ScrapeSource('slow', () => {
      reads += 1;
      return new Promise<number>((resolve) => (answer = resolve));
    }, { timeoutMs: 50, logger });
    expect(await Promise.all([source.get(), source.get()])).to.deep.equal([undefined, undefined]);
    expect(source.up).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 1050));
    const pending = source.get();
    answer(7);
    expect(await pending).to.equal(7);
    expect(reads, 'the slow read was waited for again, not started twice').to.equal(1);
    expect(source.up).to.equal(true);
    expect(lines.map((line) => line.msg)).to.deep.equal(['metrics source unavailable: its gauges are left out of the scrape', 'metrics source answers again']);
  });

  it('leaves out the gauges Prometheus’ linter refuses (totals named like counters)', async () => {
    const text = await createMetrics().registry.metrics();
    expect(text).to.not.match(/^# TYPE \S+_total gauge$/m);
    expect(text).to.contain('process_cpu_seconds_total');
  });
});
