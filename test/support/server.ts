import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@gatehouse/core';
import { createTestDatabase, type TestDatabase } from '@gatehouse/core/testing';
import { startServer, type RunningServer } from '@gatehouse/launcher';
import { freePort } from './ports.js';

export { freePort };

export interface TestServer {
  url: string;
  server: RunningServer;
  database: TestDatabase;
  /** Stops the process's server and starts a new one on the same database, port and keys. */
  restart(): Promise<void>;
  /** Another node of the same deployment: same database, keys and public URL, its own port and memory. */
  addNode(): Promise<{ url: string; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

/**
 * The whole product on its own fresh database (or `database`, given), with a bootstrap file
 * written for the test.
 */
export async function startTestServer(options: { bootstrap: string; overrides?: Record<string, unknown>; database?: TestDatabase }): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase({ migrated: true }));
  // A free port can be taken by another process between the probe and the listen (suites run side
  // by side): then another port, its URL and bootstrap file with it.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), database, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 3) {
        if (!options.database) await database.drop().catch(() => undefined);
        throw error;
      }
    }
  }
}

async function startOn(port: number, database: TestDatabase, options: { bootstrap: string; overrides?: Record<string, unknown> }): Promise<TestServer> {
  const url = `http://127.0.0.1:${port}`;
  const bootstrapFile = path.join(mkdtempSync(path.join(tmpdir(), 'gatehouse-e2e-')), 'bootstrap.yaml');
  writeFileSync(bootstrapFile, options.bootstrap.replaceAll('${url}', url));
  const config = () =>
    loadConfig({
      overrides: {
        'database.url': database.url,
        'server.port': port,
        'server.publicUrl': url,
        'bootstrap.file': bootstrapFile,
        'bootstrap.adminPassword': 'Admin-password-123!',
        'security.encryptionKey': key,
        'oidc.allowPrivateNetworkRequests': true,
        ...options.overrides,
      },
    });
  const key = randomBytes(32).toString('base64');
  const nodes: RunningServer[] = [];
  const handle: TestServer = {
    url,
    database,
    server: await startServer({ config: config() }),
    async restart() {
      await handle.server.close();
      handle.server = await startServer({ config: config() });
    },
    async addNode() {
      const nodePort = await freePort();
      const node = await startServer({ config: { ...config(), server: { ...config().server, port: nodePort } } });
      nodes.push(node);
      return { url: `http://127.0.0.1:${nodePort}`, stop: () => node.close() };
    },
    async stop() {
      await Promise.allSettled(nodes.map((node) => node.close()));
      await handle.server.close();
      await database.drop();
    },
  };
  return handle;
}
