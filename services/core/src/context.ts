import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { i18n as I18n } from 'i18next';
import { Redis, type RedisOptions } from 'ioredis';
import type { DataSource } from 'typeorm';
import { resolveConfigPath, type Config } from './config/loader.js';
import { createDataSource } from './db/data-source.js';
import { isEmbeddedDatabase } from './db/sql-client.js';
import { Broadcast } from './events/broadcast.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.js';
import { DPoPVerifier } from './http/dpop.js';
import { createMetrics, type Metrics } from './http/metrics.js';
import { createServerI18n } from './i18n/index.js';
import { createLogger, type Logger } from './logging/logger.js';
import { ARGON2_OPTIONS, PasswordHasher } from './security/passwords.js';
import { SignInThrottle } from './security/throttle.js';
import { SecretBox, loadEncryptionKey } from './security/secret-box.js';

/** Everything a service needs, built once and passed in; nothing reads config or opens handles elsewhere. */
export interface AppContext {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  redis?: Redis;
  metrics: Metrics;
  i18n: I18n;
  secrets: SecretBox;
  passwords: PasswordHasher;
  /** Per-address and per-account limits on sign-in attempts and mails (Redis when configured). */
  throttle: SignInThrottle;
  /** Proofs of possession of the resource servers' DPoP-bound tokens, each used once (Redis when configured). */
  dpop: DPoPVerifier;
  /** Cache invalidation across the nodes of a deployment. */
  broadcast: Broadcast;
  /** True when this process started the embedded database (it serves it to others). */
  embeddedDatabase: boolean;
  /** True when the database, wherever it runs, is PGlite: one session shared by all connections. */
  pglite: boolean;
  close(): Promise<void>;
}

export interface CreateContextOptions {
  logger?: Logger;
}

/** Opens the database (external or embedded), Redis when configured, and the secret box. */
export async function createContext(config: Config, options: CreateContextOptions = {}): Promise<AppContext> {
  const logger = options.logger ?? createLogger(config.log.level, undefined, config.log.format);
  const dataDir = resolveConfigPath(config, config.database.dataDir);
  let embedded: EmbeddedPostgres | undefined;
  let url = config.database.url;
  // A command (`npm run unlock`, key rotation) run beside a server on the embedded database uses
  // that server's database rather than opening the same files a second time.
  if (!url) url = runningEmbeddedDatabase(dataDir);
  if (!url) {
    embedded = await startEmbedded(config, dataDir, logger);
    url = embedded.url;
  }
  let opened: { dataSource: DataSource; pglite: boolean };
  try {
    opened = await openDataSource(url, config.database);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const { dataSource, pglite } = opened;

  let redis: Redis | undefined;
  if (config.redis.url) {
    redis = new Redis(config.redis.url, redisOptions(config.redis.commandTimeoutMs));
    redis.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis error'));
    await redis.connect().catch((error: Error) => logger.warn({ err: error.message }, 'redis unavailable at start'));
  }

  const secrets = new SecretBox(await loadEncryptionKey(config.security.encryptionKey, dataDir));
  const broadcast = new Broadcast(redis, logger, `${config.redis.keyPrefix}:broadcast`);
  await broadcast.start();
  let closed = false;
  return {
    config,
    logger,
    dataSource,
    redis,
    metrics: createMetrics({ dataSource, logger }),
    i18n: createServerI18n(),
    secrets,
    passwords: new PasswordHasher(config.security.hashConcurrency, ARGON2_OPTIONS, config.security.hashQueueLimit),
    throttle: new SignInThrottle(config.security, redis, logger, `${config.redis.keyPrefix}:${config.server.publicUrl}`),
    dpop: new DPoPVerifier({
      publicUrl: config.server.publicUrl,
      trustProxy: config.server.trustProxy,
      redis,
      logger,
      namespace: `${config.redis.keyPrefix}:${config.server.publicUrl}`,
    }),
    broadcast,
    embeddedDatabase: Boolean(embedded),
    pglite,
    async close() {
      if (closed) return;
      closed = true;
      broadcast.stop();
      if (redis) redis.disconnect();
      if (dataSource.isInitialized) await dataSource.destroy();
      if (embedded) rmSync(path.join(dataDir, EMBEDDED_URL_FILE), { force: true });
      await embedded?.stop();
    },
  };
}

/** The embedded database of a deployment without DATABASE_URL, announced to commands run beside it. */
async function startEmbedded(config: Config, dataDir: string, logger: Logger): Promise<EmbeddedPostgres> {
  const started = Date.now();
  const embedded = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'pglite'),
    port: config.database.embeddedPort,
    // Room for the pool plus the migration runner and an operator's psql session.
    maxConnections: config.database.poolSize + 4,
    onCrash: ({ error, restarting }) => logger.error({ err: error, restarting }, 'the embedded database stopped unexpectedly'),
    onRestart: ({ attempt, ms }) => logger.warn({ attempt, ms }, 'the embedded database is back'),
  });
  writeFileSync(path.join(dataDir, EMBEDDED_URL_FILE), JSON.stringify({ pid: process.pid, url: embedded.url }), { mode: 0o600 });
  logger.info({ dataDir, ms: Date.now() - started }, 'embedded PostgreSQL started');
  return embedded;
}

/**
 * The data source, initialised. PGlite is one session: its socket server runs each protocol
 * message of every connection in turn, so two connections' extended-protocol statements (parse,
 * bind, execute) interleave, and one runs the other's statement or waits forever behind the other's
 * transaction. On it the pool keeps one connection, which serialises them; a transaction then holds
 * the database until it ends, as PGlite's single session must anyway.
 */
async function openDataSource(url: string, settings: Config['database']): Promise<{ dataSource: DataSource; pglite: boolean }> {
  const dataSource = createDataSource({ url, poolSize: settings.poolSize, connectionTimeoutMs: settings.connectTimeoutMs, statementTimeoutMs: settings.statementTimeoutMs });
  await dataSource.initialize();
  const pglite = await isEmbeddedDatabase(dataSource);
  if (pglite) {
    const pool = (dataSource.driver as unknown as { master?: { options?: { max?: number } } }).master;
    if (pool?.options) pool.options.max = 1;
  }
  return { dataSource, pglite };
}

/**
 * Redis answers within `commandTimeoutMs` or the command fails (the rate limits then count in
 * memory, readiness turns red) instead of waiting on a dead connection; a connection that stays
 * silent three times that long is opened again, and reconnection is retried every 50 ms to 2 s.
 * Commands issued while it is down wait in the offline queue within the same bound, so a short
 * reconnection loses nothing.
 */
function redisOptions(commandTimeoutMs: number): RedisOptions {
  return { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: commandTimeoutMs, socketTimeout: 3 * commandTimeoutMs };
}

/** Where a process serving the embedded database says so (readable by its owner only). */
const EMBEDDED_URL_FILE = 'embedded-database.json';

/** The URL of the embedded database another live process of this data folder serves, if any. */
function runningEmbeddedDatabase(dataDir: string): string | undefined {
  try {
    const { pid, url } = JSON.parse(readFileSync(path.join(dataDir, EMBEDDED_URL_FILE), 'utf8')) as { pid: number; url: string };
    if (pid === process.pid) return undefined;
    process.kill(pid, 0);
    return url;
  } catch {
    return undefined;
  }
}
