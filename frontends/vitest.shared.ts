import type { ViteUserConfig } from 'vitest/config';

/** Test settings every frontend workspace shares. */
export const sharedTestOptions: NonNullable<ViteUserConfig['test']> = {
  environment: 'jsdom',
  setupFiles: ['./vitest.setup.ts'],
  include: ['src/**/*.test.{ts,tsx}'],
  restoreMocks: true,
  unstubGlobals: true,
  // Rendering antd pages in jsdom takes seconds on a busy 2-core machine; a test's own waits stay short.
  testTimeout: 20_000,
};
