import net from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { loadConfig } from '../config/loader.js';
import { createTestContext, createTestDatabase } from '../testing/index.js';
import { createBaseApp } from './base-app.js';

/** A TCP relay in front of the database that a test can cut, to make the database unreachable. */
async function startRelay(targetUrl: string) {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('health and metrics', () => {
  it('reports live, and ready while the database answers', async () => {
    const context = await createTestContext({ migrate: false });
    const server = createBaseApp(context).callback();
    expect((await request(server).get('/health/live')).body).to.deep.equal({ status: 'ok' });
    const ready = await request(server).get('/health/ready');
    expect(ready.status).to.equal(200);
    expect(ready.body.checks.database).to.equal('ok');
    expect(ready.headers['cache-control']).to.equal('no-store');
  });

  it('turns /health/ready to 503 when the database becomes unreachable, and back when it returns', async () => {
    const database = await createTestDatabase();
    const relay = await startRelay(database.url);
    const context = await createTestContext({ migrate: false, overrides: { 'database.url': relay.url } });
    const server = createBaseApp(context).callback();
    expect((await request(server).get('/health/ready')).status).to.equal(200);

    await relay.cut();
    const down = await request(server).get('/health/ready');
    expect(down.status).to.equal(503);
    expect(down.body.status).to.equal('unavailable');
    expect(down.body.checks.database).to.match(/^unavailable/);
    expect((await request(server).get('/health/live')).status, 'liveness does not depend on the database').to.equal(200);
    await database.drop();
  });

  it('turns /health/ready to 503 when a configured Redis does not answer', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const context = await createTestContext({ migrate: false, overrides: { 'redis.url': `redis://127.0.0.1:${port}` } });
    const res = await request(createBaseApp(context).callback()).get('/health/ready');
    expect(res.status).to.equal(503);
    expect(res.body.checks.database).to.equal('ok');
    expect(res.body.checks.redis).to.match(/^unavailable/);
  });

  it('gives up on a Redis that takes connections but never answers: commands fail at their bound, /health/ready answers 503', async () => {
    const held = new Set<net.Socket>();
    const silent = net.createServer((socket) => void held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const context = await createTestContext({ migrate: false, overrides: { 'redis.url': `redis://127.0.0.1:${port}`, 'redis.commandTimeoutMs': 200 } });
      expect(await context.redis!.ping().then(String, (error: Error) => error.message)).to.equal('Command timed out');
      const res = await request(createBaseApp(context).callback()).get('/health/ready');
      expect(res.status).to.equal(503);
      expect(res.body.checks).to.deep.include({ database: 'ok' });
      expect(res.body.checks.redis).to.match(/^unavailable/);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('checks Redis exactly when REDIS_URL is configured', async () => {
    const configured = Boolean(loadConfig().redis.url);
    const context = await createTestContext({ migrate: false });
    const res = await request(createBaseApp(context).callback()).get('/health/ready');
    expect(res.status).to.equal(200);
    expect(res.body.checks).to.deep.equal(configured ? { database: 'ok', redis: 'ok' } : { database: 'ok' });
  });

  it('exposes Prometheus metrics with request durations by route', async () => {
    const context = await createTestContext({ migrate: false });
    const server = createBaseApp(context).callback();
    await request(server).get('/health/live');
    const res = await request(server).get('/metrics');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/plain/);
    expect(res.text).to.match(/http_request_duration_seconds_count\{method="GET",route="\/health\/live",status="200"\} 1/);
    expect(res.text).to.contain('process_cpu_seconds_total');
  });

  it('requires the bearer token on /metrics when METRICS_TOKEN is set', async () => {
    const context = await createTestContext({ migrate: false, overrides: { 'metrics.token': 'a-long-metrics-token' } });
    const server = createBaseApp(context).callback();
    expect((await request(server).get('/metrics')).status).to.equal(401);
    expect((await request(server).get('/metrics').set('Authorization', 'Bearer wrong-token-value')).status).to.equal(401);
    expect((await request(server).get('/metrics').set('Authorization', 'Bearer a-long-metrics-token')).status).to.equal(200);
    for (const near of ['Bearer a-long-metrics-token-and-more', 'Bearer a-long-metrics-toke', 'Basic a-long-metrics-token', 'a-long-metrics-token']) {
      expect((await request(server).get('/metrics').set('Authorization', near)).status, near).to.equal(401);
    }
  });

  it('does not serve /metrics in production without METRICS_TOKEN', async () => {
    const context = await createTestContext({ migrate: false, overrides: { nodeEnv: 'production' } });
    const server = createBaseApp(context).callback();
    const res = await request(server).get('/metrics').set('Accept-Language', 'en');
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ code: 'errors.not_found', message: 'Not found' });
    expect(res.text).to.not.contain('process_cpu_seconds_total');
    expect((await request(server).get('/health/live')).status, 'the probes stay open').to.equal(200);
  });
});
