// One contender of the provider bench, in a process of its own (the load comes from the bench's
// main process): `product` (the whole product; on the PostgreSQL database of BENCH_DATABASE_URL,
// else on its embedded database in a fresh data folder, as a deployment without DATABASE_URL runs)
// or `bare` (oidc-provider alone; its PostgreSQL adapter on BENCH_STORE_URL, else its in-memory one).
// Announces its URL over IPC, then answers the bench's questions: its CPU time so far, argon2's
// cost measured here, and stop. It stops with its parent.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import type { JWK } from 'jose';
import Provider from 'oidc-provider';
import pg from 'pg';
import { ARGON2_OPTIONS, loadConfig } from '@gatehouse/core';
import { startServer } from '@gatehouse/launcher';
import { freePort } from '../support/server.js';
import { ACCOUNTS, PASSWORD, SECRET, accountName, type Reply, type Request } from './oidc-setup.js';
import { PostgresAdapter } from './pg-adapter.js';

interface Running {
  url: string;
  issuerPath: string;
  close(): Promise<void>;
}

async function product(): Promise<Running> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-bench-'));
  const bootstrap = path.join(dir, 'bootstrap.yaml');
  const users = Array.from({ length: ACCOUNTS }, (_, i) => `  - { userName: ${accountName(i)}, area: Default, password: '${PASSWORD}' }`).join('\n');
  writeFileSync(
    bootstrap,
    `areas: [{ name: Default, default: true }]
applications:
  - { id: '1', name: identity, displayName: Identity, type: public, roles: [{ name: God }, { name: Administrator }] }
  - id: bench
    name: bench
    displayName: Bench
    type: confidential
    secret: '${SECRET}'
    firstParty: true
    redirectUris: ['${url}/cb']
    grantTypes: [authorization_code, refresh_token, client_credentials]
users:
${users}
`,
  );
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const config = loadConfig({
    // One node, without Redis: the same footing as the bare provider on its own database.
    env: { ...process.env, DATABASE_URL: undefined, REDIS_URL: undefined },
    overrides: {
      ...(databaseUrl ? { 'database.url': databaseUrl } : { 'database.dataDir': path.join(dir, 'data') }),
      'server.port': port,
      'server.publicUrl': url,
      'bootstrap.file': bootstrap,
      'bootstrap.adminPassword': 'Admin-password-123!',
      'security.encryptionKey': randomBytes(32).toString('base64'),
      // Every sign-in of the bench comes from one address.
      'security.signInRequestsPerMinute': 1_000_000,
      'log.level': 'silent',
    },
  });
  const server = await startServer({ config });
  return {
    url,
    issuerPath: '/oidc',
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function bare(): Promise<Running> {
  const keys = JSON.parse(process.env.BENCH_KEYS ?? '[]') as JWK[];
  const storeUrl = process.env.BENCH_STORE_URL;
  const pool = storeUrl ? new pg.Pool({ connectionString: storeUrl, max: Number(process.env.BENCH_STORE_POOL ?? 10) }) : undefined;
  // An idle connection the server ends (a restart, the database dropped) is an error event of the
  // pool: it is reported, and the next query opens a new connection, as the product's pool does.
  pool?.on('error', (error) => console.error(`bare provider's store pool: ${error.message}`));
  if (pool) await PostgresAdapter.prepare(pool);
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(base, {
    ...(pool ? { adapter: (model: string) => new PostgresAdapter(pool, model) } : {}),
    clients: [
      {
        client_id: 'bench',
        client_secret: SECRET,
        grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
        redirect_uris: [`${base}/cb`],
      },
    ],
    jwks: { keys },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    features: { clientCredentials: { enabled: true }, introspection: { enabled: true }, devInteractions: { enabled: true } },
    ttl: { ClientCredentials: 600 },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    pkce: { required: () => false },
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid');
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => void handle(req, res));
  return {
    url: base,
    issuerPath: '',
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool?.end();
    },
  };
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function answer(request: Request, running: Running): Promise<unknown> {
  switch (request.op) {
    case 'cpu':
      return cpuMs();
    case 'memory':
      return process.memoryUsage().rss;
    case 'argon2Cpu': {
      // One at a time, with the product's parameters, in this process: the CPU one verification costs here.
      const hash = await argon2.hash(PASSWORD, ARGON2_OPTIONS);
      await argon2.verify(hash, PASSWORD);
      const before = cpuMs();
      for (let i = 0; i < request.count; i++) await argon2.verify(hash, PASSWORD);
      return (cpuMs() - before) / request.count;
    }
    case 'argon2Rate': {
      const hash = await argon2.hash(PASSWORD, ARGON2_OPTIONS);
      const started = Date.now();
      const until = started + request.seconds * 1000;
      let done = 0;
      await Promise.all(
        Array.from({ length: request.workers }, async () => {
          while (Date.now() < until) {
            await argon2.verify(hash, PASSWORD);
            done++;
          }
        }),
      );
      return done / ((Date.now() - started) / 1000);
    }
    case 'stop':
      await running.close();
      return true;
  }
}

async function main(): Promise<void> {
  const kind = process.argv[2];
  if (kind !== 'product' && kind !== 'bare') throw new Error('usage: oidc-server.ts product|bare');
  const started = kind === 'product' ? await product() : await bare();
  let closing: Promise<void> | undefined;
  const running: Running = { ...started, close: () => (closing ??= started.close()) };
  const send = (reply: Reply) => process.send!(reply);
  process.on('message', (request: Request) => {
    answer(request, running).then(
      (result) => {
        send({ id: request.id, result });
        if (request.op === 'stop') process.disconnect();
      },
      (error: unknown) => send({ id: request.id, error: String((error as Error)?.stack ?? error) }),
    );
  });
  // The bench went away (stopped, or failed): so does this contender.
  process.on('disconnect', () => {
    void running.close().finally(() => process.exit(0));
  });
  send({ ready: { url: running.url, issuerPath: running.issuerPath } });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
