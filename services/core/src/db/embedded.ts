import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  /** A postgres:// URL the ordinary `pg` driver connects to. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite (Postgres compiled to WASM) in this process and serves it on a loopback port, so
 * the application reaches it through the same `pg` driver, migrations and SQL as production.
 * `dataDir` undefined keeps the database in memory (tests).
 */
export async function startEmbeddedPostgres(options: {
  dataDir?: string;
  port?: number;
  maxConnections: number;
}): Promise<EmbeddedPostgres> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  // PGlite ships contrib extensions as separate bundles: whatever a migration creates must be loaded here.
  const db = await PGlite.create(options.dataDir ?? 'memory://', { extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: options.port ?? 0,
    // The server multiplexes connections onto PGlite's single session; its default of one
    // connection would refuse the rest of the pool.
    maxConnections: options.maxConnections,
  });
  await server.start();
  const address = (server as unknown as { port: number }).port;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${address}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
