import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config/loader.js';
import { createContext, type AppContext } from '../context.js';
import { createTestDatabase, disposeTemplates, type TestDatabase } from './database.js';

/** What closes each context made by this run, in the order they were made (the shared one apart). */
const disposers: Array<() => Promise<void>> = [];

export interface TestContextOptions {
  /** Configuration values by dotted key, over the environment's. */
  overrides?: Record<string, unknown>;
  /** Start from a migrated database (default true); false: an empty one. */
  migrate?: boolean;
}

/** A context on its own fresh database, closed and dropped when its test file ends. */
export async function createTestContext(options: TestContextOptions = {}): Promise<AppContext & { database: TestDatabase }> {
  const { context, dispose } = await openTestContext(options);
  disposers.push(dispose);
  return context;
}

async function openTestContext(options: TestContextOptions): Promise<{ context: AppContext & { database: TestDatabase }; dispose(): Promise<void> }> {
  const database = await createTestDatabase({ migrated: options.migrate !== false });
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
  return { context: Object.assign(context, { database }), dispose };
}

/** Kept apart from the others: a later test file may hold it already when an earlier file's contexts are closed. */
let shared: Promise<{ context: AppContext; dispose(): Promise<void> }> | undefined;

/** One migrated context shared by the tests of this run; tests isolate themselves through factories. */
export async function sharedTestContext(): Promise<AppContext> {
  shared ??= openTestContext({});
  return (await shared).context;
}

/** How many of the contexts this run made are still open, for disposeTestContextsBefore. */
export function testContextsMade(): number {
  return disposers.length;
}

/**
 * Closes the contexts made before the `count`th (those of the test files that have ended), so a run
 * holds the databases of one file at a time rather than of every file until it ends: an embedded
 * database is a few hundred megabytes.
 */
export async function disposeTestContextsBefore(count: number): Promise<void> {
  const pending = disposers.splice(0, count);
  await Promise.allSettled(pending.reverse().map((dispose) => dispose()));
}

/** Closes every context and drops every database created by this run. */
export async function disposeTestContexts(): Promise<void> {
  const pending = disposers.splice(0).reverse();
  const sharedOne = shared;
  shared = undefined;
  if (sharedOne) pending.push(() => sharedOne.then(({ dispose }) => dispose()));
  await Promise.allSettled(pending.map((dispose) => dispose()));
  await disposeTemplates();
}
