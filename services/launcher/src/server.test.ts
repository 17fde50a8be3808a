import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '@gatehouse/core';
import { createTestDatabase } from '@gatehouse/core/testing';
import { expect } from 'chai';
import { startServer } from './server.js';

async function config(overrides: Record<string, unknown>): Promise<Config> {
  return loadConfig({ overrides: { 'server.port': 0, 'log.level': 'silent', ...overrides } });
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
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
      expect(server.context.dataSource.isInitialized, 'the database is closed').to.equal(false);
    } finally {
      await database.drop();
    }
  });
});
