import type { ViteUserConfig } from 'vitest/config';

/** Test settings every frontend workspace shares. */
export const sharedTestOptions: NonNullable<ViteUserConfig['test']> = {
  environment: 'jsdom',
  // One window and one module cache per worker rather than per file: a file then costs its tests,
  // not a new jsdom and a new evaluation of antd and React. Each file starts afresh all the same
  // (`startTestFileAfresh`, the first line of every setup file).
  pool: 'vmForks',
  // The icons' Node entry wraps their CommonJS build, whose `require` of @ant-design/colors the
  // vm pool's loader resolves to that package's ES build; their ES build loads the ES build throughout.
  alias: [{ find: /^@ant-design\/icons$/, replacement: '@ant-design/icons/es' }],
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
