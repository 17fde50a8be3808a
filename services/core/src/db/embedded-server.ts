import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedServerOptions {
  /** Undefined keeps the database in memory (tests). */
  dataDir?: string;
  /**
   * An in-memory database starts from this copy of another's files (`dump`) instead of an empty
   * cluster: a test database already migrated, in a second where initdb and the migrations take several.
   */
  image?: ArrayBuffer;
  /** 0 picks a free one. */
  port: number;
  maxConnections: number;
}

export interface EmbeddedServer {
  port: number;
  /** A copy of the database's files (uncompressed tar) to start another from. */
  dump(): Promise<ArrayBuffer>;
  stop(): Promise<void>;
}

/**
 * PGlite (Postgres compiled to WASM) served on a loopback port, so the application reaches it
 * through the same `pg` driver, migrations and SQL as production. Runs in whichever thread calls it.
 */
export async function serveEmbeddedPostgres(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  // PGlite ships contrib extensions as separate bundles: whatever a migration creates must be loaded here.
  const loadDataDir = options.image && !options.dataDir ? new Blob([options.image]) : undefined;
  const db = await PGlite.create(options.dataDir ?? 'memory://', { extensions: { pg_trgm }, loadDataDir });
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: options.port,
    // The server multiplexes connections onto PGlite's single session; its default of one
    // connection would refuse the rest of the pool.
    maxConnections: options.maxConnections,
  });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    port: (server as unknown as { port: number }).port,
    async dump() {
      await db.exec('CHECKPOINT');
      return (await db.dumpDataDir('none')).arrayBuffer();
    },
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
