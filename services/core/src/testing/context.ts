import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config/loader.js';
import { createContext, type AppContext } from '../context.js';
import { migrate } from '../db/migrate.js';
import { createTestDatabase, type TestDatabase } from './database.js';

const disposers: Array<() => Promise<void>> = [];

export interface TestContextOptions {
  /** Configuration values by dotted key, over the environment's. */
  overrides?: Record<string, unknown>;
  /** Run the migrations (default true). */
  migrate?: boolean;
}

/** A context on its own fresh database, closed and dropped when the test run ends. */
export async function createTestContext(options: TestContextOptions = {}): Promise<AppContext & { database: TestDatabase }> {
  const database = await createTestDatabase();
  const config = loadConfig({
    overrides: {
      'database.url': database.url,
      'database.poolSize': 5,
      'security.encryptionKey': randomBytes(32).toString('base64'),
      'server.port': 0,
      ...options.overrides,
    },
  });
  const context = await createContext(config);
  const dispose = async () => {
    await context.close();
    await database.drop();
  };
  disposers.push(dispose);
  if (options.migrate !== false) await migrate(context.dataSource);
  return Object.assign(context, { database });
}

let shared: Promise<AppContext> | undefined;

/** One migrated context shared by the tests of this run; tests isolate themselves through factories. */
export function sharedTestContext(): Promise<AppContext> {
  return (shared ??= createTestContext());
}

/** Closes every context and drops every database created by this run. */
export async function disposeTestContexts(): Promise<void> {
  const pending = disposers.splice(0);
  await Promise.allSettled(pending.reverse().map((dispose) => dispose()));
  shared = undefined;
}
