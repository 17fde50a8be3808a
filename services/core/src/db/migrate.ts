import { MigrationExecutor, type DataSource } from 'typeorm';
import { withoutStatementBounds } from './data-source.js';
import { isEmbeddedDatabase } from './sql-client.js';

/** Any constant shared by every node: they queue on it instead of migrating at the same time. */
const MIGRATION_LOCK = 7_418_220_011;

/**
 * Runs pending migrations under an advisory lock, so several nodes starting together are safe, on
 * one connection without the statement bound of requests (a migration, or the wait for another
 * node's, may take longer).
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  // The embedded database is one session: nobody to queue against.
  const embedded = await isEmbeddedDatabase(dataSource);
  return withoutStatementBounds(dataSource, async (runner) => {
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    if (embedded) return (await executor.executePendingMigrations()).map((m) => m.name);
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      return (await executor.executePendingMigrations()).map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  });
}
