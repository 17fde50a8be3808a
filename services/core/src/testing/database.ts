import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../config/loader.js';
import { startEmbeddedPostgres } from '../db/embedded.js';

export interface TestDatabase {
  url: string;
  /** Drops the database (external) or stops the in-memory one (embedded). */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test run: a new database with a unique name on the server of
 * DATABASE_URL, or an in-memory PGlite when DATABASE_URL is unset.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = loadConfig().database.url;
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres({ maxConnections: 30 });
    return { url: embedded.url, drop: () => embedded.stop() };
  }
  const name = `gatehouse_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
