import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '@gatehouse/core';
import { createTestDatabase } from '@gatehouse/core/testing';
import { NOTIFICATION_HUB_EVENTS, NOTIFICATIONS_HUB_PATH } from '@gatehouse/contracts';
import { expect } from 'chai';
import { SignJWT, importJWK, type JWK } from 'jose';
import { io } from 'socket.io-client';
import { startServer } from './server.js';

async function config(overrides: Record<string, unknown>): Promise<Config> {
  return loadConfig({ overrides: { 'server.port': 0, 'log.level': 'silent', ...overrides } });
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('launcher', () => {
  it('runs both services on one port over the embedded database, and a second start keeps the data unchanged', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-data-'));
    const first = await startServer({ config: await config({ 'database.dataDir': dataDir, 'database.url': undefined }) });
    try {
      expect(first.context.embeddedDatabase).to.equal(true);
      expect(first.generatedAdminPassword).to.be.a('string');
      expect((await get(`${first.url}/health/ready`)).status).to.equal(200);
      expect(JSON.parse((await get(`${first.url}/api/v1/config`)).body).clientId).to.equal('portal');
      const admin = await get(`${first.url}/api/v1/admin/anything`);
      expect(admin.status, 'admin paths reach the admin API, which asks who is calling first').to.equal(401);
      expect(JSON.parse(admin.body).code).to.equal('errors.unauthorized');
      await first.context.dataSource.query(`UPDATE areas SET name = 'Customers' WHERE name = 'Customers'`);
    } finally {
      await first.close();
    }
    const counts = async (server: Awaited<ReturnType<typeof startServer>>) =>
      server.context.dataSource.query(
        `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM roles) AS roles, (SELECT max(modified_on) FROM applications) AS modified`,
      );

    const second = await startServer({ config: await config({ 'database.dataDir': dataDir, 'database.url': undefined }) });
    try {
      expect(second.generatedAdminPassword, 'the administrator already exists').to.equal(undefined);
      const [row] = await counts(second);
      expect(Number(row.users)).to.equal(1);
      expect(Number(row.roles)).to.equal(8);
    } finally {
      await second.close();
    }
  });

  it('serves a single service alone against a shared database', async () => {
    const database = await createTestDatabase();
    const shared = { 'database.url': database.url, 'security.encryptionKey': Buffer.alloc(32, 7).toString('base64') };
    const idp = await startServer({ config: await config(shared), services: ['idp'] });
    const adminApi = await startServer({ config: await config(shared), services: ['admin-api'] });
    try {
      expect((await get(`${idp.url}/api/v1/online`)).status).to.equal(200);
      expect((await get(`${adminApi.url}/api/v1/online`)).status, 'the admin API does not answer identity paths').to.equal(404);
      expect((await get(`${adminApi.url}/health/ready`)).status).to.equal(200);
    } finally {
      await idp.close();
      await adminApi.close();
      await database.drop();
    }
  });

  it('lets a request in flight finish when it shuts down, then refuses new connections', async () => {
    const database = await createTestDatabase();
    const server = await startServer({ config: await config({ 'database.url': database.url }) });
    try {
      // A request whose body is still arriving is in flight when the shutdown starts.
      const socket = net.connect(server.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const ended = new Promise((resolve) => socket.once('close', resolve));
      socket.write('POST /api/v1/online HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer none\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));

      const closing = server.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await get(`${server.url}/health/live`).then(() => 'answered', (e: NodeJS.ErrnoException) => e.code)).to.equal(
        'ECONNREFUSED',
      );
      socket.write('{}');
      await closing;
      await ended;
      expect(answer, 'the request in flight got its answer').to.match(/^HTTP\/1\.1 405 /);
      expect(answer, 'and was told the connection closes: no request is sent on it any more').to.match(/\r\nConnection: close\r\n/i);
      expect(server.context.dataSource.isInitialized, 'the database is closed').to.equal(false);
    } finally {
      await database.drop();
    }
  });

  it('serves the notification hub on its port, for console tokens only, and shuts down at once with consoles connected', async () => {
    const database = await createTestDatabase();
    const server = await startServer({ config: await config({ 'database.url': database.url, 'server.shutdownTimeoutMs': 30_000 }) });
    const sockets: Array<ReturnType<typeof io>> = [];
    const connect = (token?: string) => {
      const socket = io(server.url, { path: NOTIFICATIONS_HUB_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: token ? { token } : {} });
      sockets.push(socket);
      return new Promise<string>((resolve) => {
        socket.once(NOTIFICATION_HUB_EVENTS.beginConnection, () => resolve('accepted'));
        socket.once('connect_error', (error: Error) => resolve(error.message));
      });
    };
    try {
      expect(await connect()).to.equal('unauthorized');
      // A console token as the provider signs it, with the provider's own key, for the bootstrap administrator.
      const { context } = server;
      const [key] = await context.dataSource.query(`SELECT kid, alg, private_jwk_encrypted FROM signing_keys WHERE status = 'active' AND alg = 'RS256' LIMIT 1`);
      const [admin] = await context.dataSource.query('SELECT id FROM users WHERE user_name = $1', [context.config.bootstrap.adminUserName]);
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ scope: 'admin', client_id: context.config.oidc.adminClientId, roles: ['Administrator'] })
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
        .setIssuer(context.config.oidc.issuer)
        .setAudience(context.config.oidc.adminApiAudience)
        .setSubject(admin.id)
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(await importJWK(JSON.parse(context.secrets.decrypt(key.private_jwk_encrypted)) as JWK, key.alg));
      expect(await connect(token)).to.equal('accepted');

      const started = Date.now();
      await server.close();
      expect(Date.now() - started, 'the open websocket does not hold the shutdown').to.be.below(5000);
      expect(sockets[1]!.connected).to.equal(false);
    } finally {
      for (const socket of sockets) socket.disconnect();
      await server.close();
      await database.drop();
    }
  });

  it('in production serves /metrics on the public port only to the bearer of METRICS_TOKEN, and to anyone on the loopback METRICS_PORT', async () => {
    const database = await createTestDatabase();
    const production = { nodeEnv: 'production', 'database.url': database.url, 'security.encryptionKey': Buffer.alloc(32, 9).toString('base64') };
    const open = await startServer({ config: await config(production), services: ['idp'] });
    try {
      const res = await get(`${open.url}/metrics`);
      expect(res.status, 'without a token the public port does not serve it').to.equal(404);
      expect(res.body).to.not.contain('process_cpu_seconds_total');
      expect((await get(`${open.url}/metrics`, { authorization: 'Bearer guessed-token-0123456789' })).status).to.equal(404);
      expect(open.metricsPort, 'no metrics port unless configured').to.equal(undefined);
    } finally {
      await open.close();
    }

    const guarded = await startServer({ config: await config({ ...production, 'metrics.token': 'a-long-metrics-token', 'metrics.port': 0 }), services: ['idp'] });
    try {
      expect((await get(`${guarded.url}/metrics`)).status).to.equal(401);
      expect((await get(`${guarded.url}/metrics`, { authorization: 'Bearer wrong-metrics-token-1' })).status).to.equal(401);
      const scraped = await get(`${guarded.url}/metrics`, { authorization: 'Bearer a-long-metrics-token' });
      expect(scraped.status).to.equal(200);
      expect(scraped.body).to.contain('process_cpu_seconds_total');

      const local = await get(`http://127.0.0.1:${guarded.metricsPort}/metrics`);
      expect(local.status, 'the loopback port needs no token').to.equal(200);
      expect(local.body).to.contain('process_cpu_seconds_total');
      expect((await get(`http://127.0.0.1:${guarded.metricsPort}/health/ready`)).status, 'and serves nothing else').to.equal(404);
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((address) => address && address.family === 'IPv4' && !address.internal);
      if (outside) {
        const reached = await get(`http://${outside.address}:${guarded.metricsPort}/metrics`).then(
          () => 'answered',
          (error: NodeJS.ErrnoException) => error.code,
        );
        expect(reached, `the metrics port is not reachable on ${outside.address}`).to.equal('ECONNREFUSED');
      }
    } finally {
      await guarded.close();
      await database.drop();
    }
    expect(await get(`http://127.0.0.1:${guarded.metricsPort}/metrics`).then(() => 'answered', (e: NodeJS.ErrnoException) => e.code), 'closed with the server').to.equal('ECONNREFUSED');
  });
});
