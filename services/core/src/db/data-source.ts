import { migrations } from '@gatehouse/migrations';
import pg from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { entities } from '../entities/index.js';
import { pgDriver } from '../telemetry/database.js';
import { SnakeNamingStrategy } from './naming-strategy.js';

/**
 * What repositories need of TypeORM's DataSource or of a transaction's EntityManager: plain SQL.
 * Typed structurally so a package can depend on core's data source, not on TypeORM itself.
 */
export interface Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}

export interface DataSourceOptions {
  url: string;
  poolSize: number;
  applicationName?: string;
  /** Fail a query that waits longer than this for a connection: a new one, or a free one of the pool. */
  connectionTimeoutMs?: number;
  /**
   * Bounds every statement: PostgreSQL cancels one that runs longer and ends a transaction left
   * idle that long, and the driver gives up on an answer a little after (a dead network path
   * never answers). Unset: unbounded.
   */
  statementTimeoutMs?: number;
}

/** How much longer than the server's own bound the driver waits, so a live server's cancellation comes first. */
const ANSWER_MARGIN_MS = 1000;

/** The `pg` settings that bound a statement, or none. */
function statementBounds(ms: number | undefined): Record<string, unknown> {
  if (!ms) return {};
  return { statement_timeout: ms, idle_in_transaction_session_timeout: ms, query_timeout: ms + ANSWER_MARGIN_MS, Client: BoundedClient };
}

/** What `pg` rejects a statement with when its answer did not come within `query_timeout`. */
const NO_ANSWER = 'Query read timeout';

type AnyQuery = (...args: unknown[]) => unknown;

/**
 * A connection whose answer did not come within `query_timeout` is out of step (the answer may
 * come later, or never, as after a failover that left the old server silent): it is closed, so the
 * pool opens a fresh one instead of queueing the next statements behind the lost answer.
 */
class BoundedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as AnyQuery;
    // Ending marks the client at once, so the pool drops it instead of taking it back.
    const closeIfSilent = (error: unknown) => {
      if (error instanceof Error && error.message === NO_ANSWER) this.end().catch(() => undefined);
    };
    (this as unknown as { query: AnyQuery }).query = (...args) => {
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        return query(...args.slice(0, -1), (error: unknown, result: unknown) => {
          closeIfSilent(error);
          (callback as (error: unknown, result: unknown) => void)(error, result);
        });
      }
      const result = query(...args);
      if (result instanceof Promise) result.catch(closeIfSilent);
      return result;
    };
  }
}

export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    // With tracing on, a pool whose statements make spans.
    driver: pgDriver(),
    url: options.url,
    entities,
    migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    uuidExtension: 'pgcrypto',
    namingStrategy: new SnakeNamingStrategy(),
    applicationName: options.applicationName ?? 'gatehouse',
    extra: {
      max: options.poolSize,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
      // A peer that vanished without closing (a host down, a cut path) is noticed by the kernel.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      ...statementBounds(options.statementTimeoutMs),
    },
  });
}

/**
 * Runs `work` on one connection of the data source with no statement bound: migrations (an index
 * built on a large table) and the wait for another node's migrations may take longer than any
 * request should. The connection gets its bounds back before it returns to the pool.
 */
export async function withoutStatementBounds<T>(dataSource: DataSource, work: (runner: QueryRunner) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const client = (runner as unknown as { databaseConnection: { connectionParameters: { query_timeout?: number | false } } }).databaseConnection;
  const bounded = client.connectionParameters.query_timeout;
  try {
    if (bounded) {
      client.connectionParameters.query_timeout = false;
      await runner.query('SET statement_timeout = 0; SET idle_in_transaction_session_timeout = 0');
    }
    return await work(runner);
  } finally {
    if (bounded) {
      client.connectionParameters.query_timeout = bounded;
      await runner.query('RESET statement_timeout; RESET idle_in_transaction_session_timeout').catch(() => undefined);
    }
    await runner.release();
  }
}

/** One round trip to the database: what readiness checks ask of it. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
