/**
 * What repositories need of TypeORM's DataSource or of a transaction's EntityManager: plain SQL.
 * Typed structurally so this package depends on core's data source, not on TypeORM itself.
 */
export interface Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}
