import type { DataSource } from 'typeorm';
import { isEmbeddedDatabase } from './sql-client.js';

/** Any constant shared by every node: they queue on it instead of migrating at the same time. */
const MIGRATION_LOCK = 7_418_220_011;

/** Runs pending migrations under an advisory lock, so several nodes starting together are safe. */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  // The embedded database is one session, reached through one connection: nobody to queue against,
  // and the lock's connection would be the one the migrations need.
  if (await isEmbeddedDatabase(dataSource)) return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
