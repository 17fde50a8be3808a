import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';

/** Plain SQL on the data source's connection pool, for hot paths. */
export interface SqlClient {
  /**
   * Runs one statement. A `name` makes it a prepared statement, parsed and planned once per
   * connection: use it for constant SQL run many times a second.
   */
  query<T extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[], name?: string): Promise<{ rows: T[]; rowCount: number }>;
}

/**
 * Goes straight to the `pg` pool behind TypeORM, skipping its query-runner bookkeeping, which
 * costs more than the query itself for the provider's one-row reads and writes.
 *
 * `prepare: false` ignores statement names: the embedded PGlite multiplexes every connection onto
 * one session, where a statement prepared by one connection already exists for the next.
 */
export function sqlClient(dataSource: DataSource, options: { prepare: boolean }): SqlClient {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  return {
    async query<T extends QueryResultRow>(text: string, values: unknown[] = [], name?: string) {
      const result = await pool.query<T>(name && options.prepare ? { name, text, values } : { text, values });
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
  };
}

/** PGlite (in-process, one session) or a real PostgreSQL server: they differ in what can be shared. */
export async function isEmbeddedDatabase(dataSource: DataSource): Promise<boolean> {
  const [row] = await dataSource.query('SELECT version() AS version');
  return /PGlite/i.test(String(row?.version));
}
