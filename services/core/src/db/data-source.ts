import { migrations } from '@gatehouse/migrations';
import { DataSource } from 'typeorm';
import { entities } from '../entities/index.js';
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
  /** Fail a query that waits longer than this for a pooled connection. */
  connectionTimeoutMs?: number;
}

export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
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
    },
  });
}

/** One round trip to the database: what readiness checks ask of it. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
