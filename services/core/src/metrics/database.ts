import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';

/** The operations statements are counted by: the first keyword of their SQL, a bounded set. */
export const STATEMENT_OPERATIONS = ['select', 'insert', 'update', 'delete', 'transaction', 'other'] as const;
export type StatementOperation = (typeof STATEMENT_OPERATIONS)[number];

const OPERATION_OF: Record<string, StatementOperation> = {
  select: 'select',
  insert: 'insert',
  update: 'update',
  delete: 'delete',
  begin: 'transaction',
  start: 'transaction',
  commit: 'transaction',
  rollback: 'transaction',
  savepoint: 'transaction',
  release: 'transaction',
};

const FIRST_WORD = /^\s*([A-Za-z]+)/;

/** The operation of a statement, from its first keyword; never the SQL itself, nor its parameters. */
export function statementOperation(statement: unknown): StatementOperation {
  const text = typeof statement === 'string' ? statement : (statement as { text?: unknown } | null)?.text;
  if (typeof text !== 'string') return 'other';
  const word = FIRST_WORD.exec(text)?.[1];
  return (word && OPERATION_OF[word.toLowerCase()]) || 'other';
}

/** The `pg` pool behind TypeORM's data source (the embedded PGlite is reached through one too). */
export function poolOf(dataSource: DataSource): Pool | undefined {
  return (dataSource.driver as unknown as { master?: Pool }).master;
}

type Observe = (operation: StatementOperation, seconds: number) => void;
type AnyQuery = (...args: unknown[]) => unknown;

const MEASURED = Symbol.for('gatehouse.statement-duration');

/**
 * Times every statement run on the pool's connections, TypeORM's and the plain SQL client's alike:
 * each connection's `query` is wrapped the first time the pool hands it out. The time runs from the
 * call to the answer on a connection already taken from the pool (the wait for one is the pool's
 * gauges' business). The wrapper costs a clock read and a keyword match per statement.
 */
export function measureStatements(pool: Pool, observe: Observe): void {
  pool.on('acquire', (client: PoolClient) => {
    if (!(MEASURED in client)) measureClient(client, observe);
  });
}

/** Wraps one connection's `query` (callback, promise and submittable forms). */
export function measureClient(client: object, observe: Observe): void {
  const target = client as { query: AnyQuery; [MEASURED]?: true };
  const query = target.query;
  target[MEASURED] = true;
  target.query = function measured(this: unknown, ...args: unknown[]) {
    const operation = statementOperation(args[0]);
    const started = performance.now();
    const done = () => observe(operation, (performance.now() - started) / 1000);
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        done();
        (callback as (error: unknown, result: unknown) => void)(error, result);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result instanceof Promise) result.then(done, done);
    else (result as { once?: (event: string, listener: () => void) => void } | undefined)?.once?.('end', done);
    return result;
  };
}
