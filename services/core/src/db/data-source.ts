import { migrations } from '@gatehouse/migrations';
import { DataSource } from 'typeorm';
import { entities } from '../entities/index.js';
import { SnakeNamingStrategy } from './naming-strategy.js';

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
