import type { ViteUserConfig } from 'vitest/config';

/** Test settings every frontend workspace shares. */
export const sharedTestOptions: NonNullable<ViteUserConfig['test']> = {
  environment: 'jsdom',
  setupFiles: ['./vitest.setup.ts'],
  include: ['src/**/*.test.{ts,tsx}'],
  restoreMocks: true,
  unstubGlobals: true,
  // A bound against a hung test, not a speed check: CI runs these beside three other lanes on two
  // cores, where rendering an antd table in jsdom can take tens of seconds. A test's own waits stay short.
  testTimeout: 60_000,
  // The same bound for a file's setup (a lazily loaded page imported ahead, say).
  hookTimeout: 60_000,
};
