import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../config/loader.js';
import { createDataSource } from '../db/data-source.js';
import { migrate } from '../db/migrate.js';
import { embeddedHost } from './embedded-host.js';

export interface TestDatabase {
  url: string;
  /** Drops the database (external) or stops the in-memory one (embedded). */
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * Start with every migration applied (a copy of a database migrated once per test run) rather
   * than empty. The copy is what running the migrations would give; the migrations themselves are
   * tested on an empty database (`db/migrations.test.ts`).
   */
  migrated?: boolean;
}

/** Connections an embedded test database takes: a context's pool, and room for a relay and the tests' own clients. */
const EMBEDDED_CONNECTIONS = 30;

/**
 * A fresh database for one test: a new database with a unique name on the server of
 * DATABASE_URL, or an in-memory PGlite when DATABASE_URL is unset. Empty unless `migrated`.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = loadConfig().database.url;
  return serverUrl ? createServerDatabase(serverUrl, options) : createEmbeddedDatabase(options);
}

/** Runs `statement` on the server's maintenance connection. */
async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  admin.on('error', () => undefined); // a connection the server ends: the statement's own promise reports it
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const uniqueName = (kind: string) => `gatehouse_${kind}_${Date.now()}_${randomBytes(4).toString('hex')}`;

/** Databases this process made to copy from, dropped with the test databases. */
const templates: Array<() => Promise<void>> = [];

let serverTemplate: Promise<string> | undefined;
/** Copies from one template must not overlap (PostgreSQL refuses a copy while the template has a session). */
let copying: Promise<unknown> = Promise.resolve();

/** The name of this process's migrated template database, made on first use. */
function migratedServerTemplate(serverUrl: string): Promise<string> {
  serverTemplate ??= (async () => {
    const name = uniqueName('template');
    await onServer(serverUrl, `CREATE DATABASE "${name}"`);
    templates.push(() => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      await migrateDatabase(databaseUrl(serverUrl, name));
    return name;
  })();
  return serverTemplate;
}

async function createServerDatabase(serverUrl: string, options: TestDatabaseOptions): Promise<TestDatabase> {
  const name = uniqueName('test');
  if (options.migrated) {
    const template = await migratedServerTemplate(serverUrl);
    const copy = copying.then(() => onServer(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`));
    copying = copy.catch(() => undefined);
    await copy;
  } else {
    await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  }
  return { url: databaseUrl(serverUrl, name), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** The images the embedded host keeps, made once per thread: 'empty' (initialised) and 'migrated'. */
let images: { generation: number; empty?: Promise<void>; migrated?: Promise<void> } = { generation: -1 };

/** Starts an embedded database in the host thread, from `image` or (none) a new cluster. */
async function startEmbedded(image?: 'empty' | 'migrated'): Promise<TestDatabase> {
  const { database, port } = await embeddedHost.request({ type: 'start', image, maxConnections: EMBEDDED_CONNECTIONS });
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async drop() {
      // A database whose thread ended is gone already.
      await embeddedHost.request({ type: 'stop', database: database! }).catch(() => undefined);
    },
  };
}

/** Starts a database from `from` (or a new cluster), lets `prepare` work on it, and keeps its files as `as`. */
async function makeImage(as: 'empty' | 'migrated', from: 'empty' | undefined, prepare?: (url: string) => Promise<void>): Promise<void> {
  const { database, port } = await embeddedHost.request({ type: 'start', image: from, maxConnections: EMBEDDED_CONNECTIONS });
  try {
    await prepare?.(`postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`);
    await embeddedHost.request({ type: 'save', database: database!, as });
  } finally {
    await embeddedHost.request({ type: 'stop', database: database! });
  }
}

async function migrateDatabase(url: string): Promise<void> {
  const dataSource = createDataSource({ url, poolSize: 1 });
  await dataSource.initialize();
  try {
    await migrate(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

async function ensureImage(kind: 'empty' | 'migrated'): Promise<void> {
  await embeddedHost.request({ type: 'ping' });
  if (images.generation !== embeddedHost.generation) images = { generation: embeddedHost.generation };
  images.empty ??= makeImage('empty', undefined);
  await images.empty;
  if (kind === 'migrated') {
    images.migrated ??= makeImage('migrated', 'empty', migrateDatabase);
    await images.migrated;
  }
}

async function createEmbeddedDatabase(options: TestDatabaseOptions): Promise<TestDatabase> {
  const kind = options.migrated ? 'migrated' : 'empty';
  await ensureImage(kind);
  return startEmbedded(kind);
}

/** Drops the template databases this process made (after the test databases copied from them). */
export async function disposeTemplates(): Promise<void> {
  const pending = templates.splice(0);
  serverTemplate = undefined;
  await Promise.allSettled([...pending.map((drop) => drop()), embeddedHost.close()]);
}
