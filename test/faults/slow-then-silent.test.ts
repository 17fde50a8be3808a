// A dependency's network path turns slow (2 s added to every answer), then silent (a blackhole:
// connections stay open, nothing comes back). Slow, the product still answers; silent, every call
// gives up at its configured bound (the database's connection and statement bounds, Redis's
// command bound) instead of hanging, liveness stays 200 and readiness answers 503 within its own
// bound. When the path comes back, so does the product.
import { createTestDatabase, type TestDatabase } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../support/server.js';
import { noteFigures } from './support/figures.js';
import { faultBootstrap, signIn, since, userinfoAccepts, waitUntil } from './support/flows.js';
import { FaultProxy } from './support/proxy.js';
import { OwnRedis, redisMissing } from './support/redis.js';

const SECRET = 'fault-secret-0123456789-abcdefghijklmn';
const basic = `Basic ${Buffer.from(`worker:${SECRET}`).toString('base64')}`;
const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
const LATENCY_MS = 2000;
/** The readiness check's own bound on each dependency (services/core/src/http/health.ts). */
const READINESS_BOUND_MS = 2000;
/** Room for a loaded machine's timers and the HTTP round trip around a bound. */
const MARGIN_MS = 3000;

async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await call();
  return { value, ms: since(start) };
}

async function health(url: string, which: 'live' | 'ready'): Promise<{ status: number; ms: number; checks?: Record<string, string> }> {
  const { value: res, ms } = await timed(() => fetch(`${url}/health/${which}`, { signal: AbortSignal.timeout(30_000) }));
  const body = (await res.json()) as { checks?: Record<string, string> };
  return { status: res.status, ms, checks: body.checks };
}

async function token(url: string): Promise<{ status: number; ms: number; error?: string; retryAfter: string | null }> {
  const { value: res, ms } = await timed(() =>
    fetch(`${url}/oidc/token`, { method: 'POST', headers: form, body: 'grant_type=client_credentials', signal: AbortSignal.timeout(60_000) }),
  );
  const body = (await res.json()) as { error?: string };
  return { status: res.status, ms, error: body.error, retryAfter: res.headers.get('retry-after') };
}

describe('faults: the database path turns slow, then silent', function () {
  this.timeout(240_000);
  /** The product's bounds in this scenario: a connection within 5 s, an answer within 4 s + 1 s. */
  const CONNECT_MS = 5000;
  const STATEMENT_MS = 4000;
  const CALL_BOUND_MS = Math.max(CONNECT_MS, STATEMENT_MS + 1000);
  let database: TestDatabase;
  let proxy: FaultProxy;
  let server: TestServer;

  before(async () => {
    database = await createTestDatabase();
    proxy = await FaultProxy.for(database.url).start();
    server = await startTestServer({
      database: { url: proxy.through(database.url), drop: () => database.drop() },
      bootstrap: faultBootstrap({ users: [], workerSecret: SECRET }),
      overrides: { 'log.level': 'silent', 'database.connectTimeoutMs': CONNECT_MS, 'database.statementTimeoutMs': STATEMENT_MS },
    });
  });
  after(async () => {
    proxy?.pass();
    await server?.stop();
    await proxy?.stop();
  });

  it('answers slowly while slow; while silent gives up at its bounds with 503, keeps liveness 200 and readiness 503; and recovers', async () => {
    expect((await token(server.url)).status).to.equal(200);
    expect((await health(server.url, 'ready')).status).to.equal(200);

    proxy.latency(LATENCY_MS);
    const slow = await Promise.all(Array.from({ length: 4 }, () => token(server.url)));
    for (const answer of slow) {
      // A statement waits its answer; one that waited past a bound (a connection of the pool, here) gives up with 503.
      if (answer.status !== 200) expect(answer, 'only 200, or 503 at a bound').to.include({ status: 503, error: 'temporarily_unavailable', retryAfter: '1' });
      expect(answer.ms, 'the latency was there').to.be.at.least(LATENCY_MS);
    }
    expect(slow.filter((a) => a.status === 200).length, 'slow, tokens are still issued').to.be.greaterThan(0);
    const readyWhileSlow = await health(server.url, 'ready');
    expect(readyWhileSlow.ms, 'readiness answers within its bound').to.be.below(READINESS_BOUND_MS + MARGIN_MS);

    proxy.blackhole();
    const silent = await Promise.all(Array.from({ length: 4 }, () => token(server.url)));
    for (const answer of silent) {
      expect(answer.status, JSON.stringify(answer)).to.equal(503);
      expect(answer).to.include({ error: 'temporarily_unavailable', retryAfter: '1' });
      expect(answer.ms, 'the call gave up at its bound').to.be.below(CALL_BOUND_MS + MARGIN_MS);
    }
    const live = await health(server.url, 'live');
    expect(live.status, 'liveness does not depend on the database').to.equal(200);
    const ready = await health(server.url, 'ready');
    expect(ready.status).to.equal(503);
    expect(ready.checks!.database).to.match(/^unavailable/);
    expect(ready.ms, 'readiness answers within its bound').to.be.below(READINESS_BOUND_MS + MARGIN_MS);

    proxy.pass();
    const recoveryMs = await waitUntil('tokens again', async () => (await token(server.url)).status === 200, 60_000);
    await waitUntil('readiness green', async () => (await health(server.url, 'ready')).status === 200, 60_000);
    // Every later call is answered: no connection of the pool was left waiting for a lost answer.
    for (let i = 0; i < 10; i++) expect((await token(server.url)).status).to.equal(200);

    noteFigures('database slow then silent', {
      slowTokens: slow.map((a) => `${a.status} in ${a.ms} ms`).join(' / '),
      readinessWhileSlow: `${readyWhileSlow.status} in ${readyWhileSlow.ms} ms`,
      silentTokenMs: Math.max(...silent.map((a) => a.ms)),
      callBoundMs: CALL_BOUND_MS,
      readinessWhileSilent: `${ready.status} in ${ready.ms} ms`,
      livenessWhileSilentMs: live.ms,
      recoveryMs,
    });
  });
});

describe('faults: the Redis path turns slow, then silent', function () {
  const missing = redisMissing();
  if (missing) {
    it(`is pending: ${missing}`);
    return;
  }
  this.timeout(240_000);
  let redis: OwnRedis;
  let proxy: FaultProxy;
  let server: TestServer;

  before(async () => {
    redis = await OwnRedis.start();
    proxy = await FaultProxy.for(redis.url).start();
    server = await startTestServer({
      bootstrap: faultBootstrap({ users: ['slow@example.com', 'silent@example.com', 'back@example.com'], workerSecret: SECRET }),
      overrides: { 'log.level': 'silent', 'redis.url': proxy.through(redis.url) },
    });
  });
  after(async () => {
    proxy?.pass();
    await server?.stop();
    await proxy?.stop();
    await redis?.stop();
  });

  it('lets sign-ins through while slow or silent, its commands giving up at their bound; keeps liveness 200 and readiness 503; and recovers', async () => {
    const { context } = server.server;
    const commandBoundMs = context.config.redis.commandTimeoutMs;
    const ping = () =>
      timed(() =>
        context.redis!.ping().then(
          () => 'PONG',
          (error: Error) => error.message,
        ),
      );
    expect((await health(server.url, 'ready')).checks).to.deep.equal({ database: 'ok', redis: 'ok' });

    proxy.latency(LATENCY_MS);
    const slowPing = await ping();
    expect(slowPing.value, 'a command slower than its bound gives up').to.equal('Command timed out');
    expect(slowPing.ms).to.be.below(commandBoundMs + MARGIN_MS);
    const slowSignIn = await timed(() => signIn(server.url, 'slow@example.com'));
    expect(await userinfoAccepts(server.url, slowSignIn.value.access_token!)).to.equal(true);

    proxy.blackhole();
    const silentPing = await ping();
    expect(silentPing.value).to.equal('Command timed out');
    expect(silentPing.ms, 'the command gave up at its bound').to.be.below(commandBoundMs + MARGIN_MS);
    const silentSignIn = await timed(() => signIn(server.url, 'silent@example.com'));
    expect(await userinfoAccepts(server.url, silentSignIn.value.access_token!), 'the rate limits count in memory meanwhile').to.equal(true);
    const live = await health(server.url, 'live');
    expect(live.status).to.equal(200);
    const ready = await health(server.url, 'ready');
    expect(ready.status).to.equal(503);
    expect(ready.checks).to.deep.include({ database: 'ok' });
    expect(ready.checks!.redis).to.match(/^unavailable/);
    expect(ready.ms, 'readiness answers within its bound').to.be.below(READINESS_BOUND_MS + MARGIN_MS);

    proxy.pass();
    const recoveryMs = await waitUntil('readiness green', async () => (await health(server.url, 'ready')).status === 200, 60_000);
    expect((await ping()).value).to.equal('PONG');
    await signIn(server.url, 'back@example.com');
    expect(await redis.size(), 'the rate limits count in Redis again').to.be.greaterThan(0);

    noteFigures('Redis slow then silent', {
      commandBoundMs,
      slowPingMs: slowPing.ms,
      slowSignInMs: slowSignIn.ms,
      silentPingMs: silentPing.ms,
      silentSignInMs: silentSignIn.ms,
      readinessWhileSilent: `${ready.status} in ${ready.ms} ms`,
      recoveryMs,
    });
  });
});
