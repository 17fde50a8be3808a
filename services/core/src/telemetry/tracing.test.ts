import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import pg from 'pg';
import { ConfigError, loadConfig } from '../config/index.js';
import type { AppContext } from '../context.js';
import { sqlClient } from '../db/sql-client.js';
import { createJobQueue } from '../jobs/index.js';
import { DEFAULT_TIMINGS, PermanentJobError, type JobQueue } from '../jobs/types.js';
import { createTestContext } from '../testing/context.js';
import { pgDriver, statementAttributes } from './database.js';
import { koaTracing } from './http.js';
import { activeTracer, inSpan, startTracing, startTracingForTests, tracesUrl, type Tracing } from './tracing.js';

/** Polls `check` until it answers something (bounded). */
async function eventually<T>(what: string, check: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('statement spans: what they say of the SQL', () => {
  it('names a plain statement by its operation and table, and keeps a parameterised text as it is', () => {
    const { name, attributes } = statementAttributes('SELECT "User"."id" FROM "users" "User" WHERE "User"."normalized_user_name" = $1');
    expect(name).to.equal('SELECT users');
    expect(attributes).to.include({ 'db.system.name': 'postgresql', 'db.operation.name': 'SELECT', 'db.collection.name': 'users' });
    expect(attributes['db.query.text']).to.equal('SELECT "User"."id" FROM "users" "User" WHERE "User"."normalized_user_name" = $1');
    expect(statementAttributes('  -- a comment\n  INSERT INTO "audit_logs"("id") VALUES ($1)').name).to.equal('INSERT audit_logs');
    expect(statementAttributes('DELETE FROM sessions WHERE id = $1').name).to.equal('DELETE sessions');
  });

  it('names no table where it is not plainly one (a join, a function, a subquery)', () => {
    expect(statementAttributes('SELECT o.id FROM oidc_model_instances o JOIN unnest($1::text[]) k ON true').name).to.equal('SELECT');
    expect(statementAttributes('SELECT * FROM unnest($1::text[])').name).to.equal('SELECT');
    expect(statementAttributes('SELECT floor(extract(epoch FROM o.at)) FROM t o').name).to.equal('SELECT');
    expect(statementAttributes('WITH a AS (SELECT 1) SELECT * FROM a').name).to.equal('WITH');
  });

  it('replaces the literal values of a statement written without placeholders', () => {
    const { attributes } = statementAttributes("SELECT id FROM users WHERE email = 'bob@example.com' AND failed_attempts > 4 AND note = 'it''s'");
    expect(attributes['db.query.text']).to.equal('SELECT id FROM users WHERE email = ? AND failed_attempts > ? AND note = ?');
  });
});

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('reads the endpoint from OTEL_EXPORTER_OTLP_ENDPOINT, unset by default, and refuses one that is not an http(s) URL', () => {
    expect(loadConfig({ env: {} }).tracing.otlpEndpoint).to.equal(undefined);
    expect(loadConfig({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' } }).tracing.otlpEndpoint).to.equal('http://collector:4318');
    expect(() => loadConfig({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' } }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.matches(/tracing\.otlpEndpoint \(OTEL_EXPORTER_OTLP_ENDPOINT/);
  });

  it('takes the traces’ own address as given, over the base one, and OTEL_SDK_DISABLED over both', () => {
    const urlOf = (env: Record<string, string>) => {
      const { tracing } = loadConfig({ env });
      return tracesUrl({ endpoint: tracing.otlpEndpoint, tracesEndpoint: tracing.otlpTracesEndpoint, disabled: tracing.disabled });
    };
    expect(urlOf({})).to.equal(undefined);
    expect(urlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).to.equal('http://collector:4318/v1/traces');
    expect(urlOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom/path' })).to.equal('http://traces:4318/custom/path');
    expect(urlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/in' })).to.equal('http://traces:4318/in');
    expect(urlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).to.equal(undefined);
    expect(urlOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/in', OTEL_SDK_DISABLED: 'true' })).to.equal(undefined);
    expect(() => loadConfig({ env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'traces:4318' } }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.matches(/OTEL_EXPORTER_OTLP_TRACES_ENDPOINT/);
  });

  it('starts nothing when OTEL_SDK_DISABLED is true, though an endpoint is set', async () => {
    expect(await startTracing({ serviceName: 'gatehouse', endpoint: 'http://127.0.0.1:9/', disabled: true })).to.equal(undefined);
    expect(activeTracer()).to.equal(undefined);
  });

  it('starts nothing: the API’s tracer is the no-op one and no hook is installed', async () => {
    const config = loadConfig({ env: {} });
    expect(await startTracing({ serviceName: 'gatehouse', endpoint: config.tracing.otlpEndpoint })).to.equal(undefined);
    expect(activeTracer()).to.equal(undefined);
    const span = trace.getTracer('gatehouse').startSpan('anything');
    expect(span.isRecording()).to.equal(false);
    span.end();
    expect(pgDriver(), 'the database driver is pg itself').to.equal(pg);
    expect(koaTracing(), 'no request middleware').to.equal(undefined);
    const inside = await inSpan('step', {}, () => Promise.resolve(trace.getActiveSpan()));
    expect(inside, 'no span around the work').to.equal(undefined);
  });
});

describe('tracing on: OTLP/HTTP export', function () {
  this.timeout(30_000);
  let collector: http.Server;
  const received: Array<{ method?: string; url?: string; type?: string; body: string }> = [];

  before(async () => {
    collector = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, type: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  });
  after(() => new Promise<void>((resolve) => collector.close(() => resolve())));

  it('posts the spans to <endpoint>/v1/traces, with the service name, and flushes them at shutdown', async () => {
    const { port } = collector.address() as AddressInfo;
    const tracing = (await startTracing({ serviceName: 'gatehouse-otlp-probe', endpoint: `http://127.0.0.1:${port}/` }))!;
    try {
      expect(activeTracer()).to.not.equal(undefined);
      await inSpan('probe', { attributes: { 'gatehouse.probe': 1 } }, () => Promise.resolve());
    } finally {
      await tracing.shutdown(10_000);
    }
    const post = await eventually('a POST at the collector', () => received.find((r) => r.body.includes('probe')));
    expect(post).to.include({ method: 'POST', url: '/v1/traces' });
    expect(post.type).to.match(/^application\/json/);
    const body = JSON.parse(post.body) as { resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }; scopeSpans: Array<{ spans: Array<{ name: string }> }> }> };
    const [resourceSpans] = body.resourceSpans;
    expect(resourceSpans!.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue).to.equal('gatehouse-otlp-probe');
    expect(resourceSpans!.scopeSpans.flatMap((s) => s.spans.map((span) => span.name))).to.include('probe');
    expect(activeTracer(), 'off again after shutdown').to.equal(undefined);
  });
});

describe('tracing on: statements and background jobs', function () {
  this.timeout(60_000);
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let app: AppContext;
  const queues: JobQueue[] = [];

  before(async () => {
    tracing = await startTracingForTests(exporter);
    // One connection: statements queue for it, as on the embedded database.
    app = await createTestContext({ overrides: { 'database.poolSize': 1 } });
  });
  after(async () => {
    for (const queue of queues) await queue.stop();
    await tracing?.shutdown(2000);
  });
  beforeEach(() => exporter.reset());

  const spansNamed = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('puts a statement that waited for a connection under its own caller’s span, not under the one that released it', async () => {
    const sql = sqlClient(app.dataSource, { prepare: false });
    await Promise.all([
      inSpan('first caller', {}, () => sql.query('SELECT pg_sleep(0.2) AS first_statement')),
      inSpan('second caller', {}, () => sql.query('SELECT 2 AS second_statement')),
    ]);
    for (const [caller, marker] of [['first caller', 'first_statement'], ['second caller', 'second_statement']] as const) {
      const [callerSpan] = spansNamed(caller);
      const statement = exporter.getFinishedSpans().find((s) => String(s.attributes['db.query.text']).includes(marker))!;
      expect(statement.kind).to.equal(SpanKind.CLIENT);
      expect(parentOf(statement), `${marker} under ${caller}`).to.equal(callerSpan!.spanContext().spanId);
    }
  });

  it('makes no span for a statement outside any traced work (a poller, a sweep)', async () => {
    await app.dataSource.query('SELECT 3 AS outside_any_span');
    await inSpan('caller', {}, () => app.dataSource.query('SELECT 4 AS inside_a_span'));
    const texts = exporter.getFinishedSpans().map((s) => String(s.attributes['db.query.text']));
    expect(texts.some((t) => t.includes('inside_a_span'))).to.equal(true);
    expect(texts.some((t) => t.includes('outside_any_span'))).to.equal(false);
  });

  it('marks a failed statement ERROR by its SQLSTATE, without the database’s message', async () => {
    const error = await inSpan('caller', {}, () => app.dataSource.query("SELECT * FROM users WHERE id = 'not-a-uuid-secret'")).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error);
    const statement = exporter.getFinishedSpans().find((s) => s.attributes['db.system.name'] === 'postgresql' && s.status.code === SpanStatusCode.ERROR)!;
    expect(statement.attributes).to.include({ 'db.response.status_code': '22P02', 'error.type': '22P02' });
    expect(statement.status.message).to.equal('SQLSTATE 22P02');
    const [caller] = spansNamed('caller');
    expect(caller!.status.code, 'the error reached the caller too').to.equal(SpanStatusCode.ERROR);
    expect(caller!.events.map((e) => e.attributes?.['exception.message'])).to.deep.equal(['SQLSTATE 22P02']);
    const recorded = JSON.stringify(exporter.getFinishedSpans().map((s) => [s.attributes, s.events, s.status]));
    expect(recorded, 'the value the database quoted').to.not.include('not-a-uuid-secret');
  });

  it('traces a job: its enqueue under the request that asks for it, each run in a trace of its own linked to it, a failure marked ERROR', async () => {
    const queue = createJobQueue(app, { timings: { ...DEFAULT_TIMINGS, pollingIntervalMs: 500, maintenanceIntervalMs: 1000, retryDelayMs: 100, concurrency: 1 } });
    queues.push(queue);
    queue.register('AdminReport', async ({ payload }) => {
      if (payload.fail) throw new PermanentJobError('the report cannot be made');
      return { rows: 1 };
    });
    await queue.start();
    const jobId = await inSpan('request', {}, () => queue.enqueue('AdminReport', { fail: false }));
    const failedId = await queue.enqueue('AdminReport', { fail: true });

    const [request] = spansNamed('request');
    const enqueued = spansNamed('enqueue AdminReport').find((s) => s.attributes['gatehouse.job.id'] === jobId)!;
    expect(enqueued.kind).to.equal(SpanKind.PRODUCER);
    expect(enqueued.attributes['gatehouse.job.type']).to.equal('AdminReport');
    expect(parentOf(enqueued)).to.equal(request!.spanContext().spanId);
    expect(exporter.getFinishedSpans().filter((s) => parentOf(s) === enqueued.spanContext().spanId && s.attributes['db.system.name']), 'its row is inserted under it').to.not.be.empty;

    const run = await eventually('the run span', () => spansNamed('run AdminReport').find((s) => s.attributes['gatehouse.job.id'] === jobId));
    expect(run.kind).to.equal(SpanKind.CONSUMER);
    expect(run.attributes).to.include({ 'gatehouse.job.type': 'AdminReport', 'gatehouse.job.attempt': 1 });
    expect(run.parentSpanContext, 'a trace of its own').to.equal(undefined);
    expect(run.links.map((l) => l.context.spanId)).to.deep.equal([enqueued.spanContext().spanId]);
    expect(run.status.code).to.not.equal(SpanStatusCode.ERROR);
    expect(exporter.getFinishedSpans().filter((s) => parentOf(s) === run.spanContext().spanId && s.attributes['db.system.name']), 'its row updates under it').to.not.be.empty;

    const failed = await eventually('the failed run span', () => spansNamed('run AdminReport').find((s) => s.attributes['gatehouse.job.id'] === failedId));
    expect(failed.status.code).to.equal(SpanStatusCode.ERROR);
    expect(failed.events.map((e) => e.attributes?.['exception.message'])).to.deep.equal(['the report cannot be made']);
  });
});
