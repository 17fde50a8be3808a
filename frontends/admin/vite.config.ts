import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress, sharedResolve, splitWordLists, wordListChunks } from '../vite.shared.ts';

// What every page needs before anything else: one long-cached chunk, apart from the app's code.
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|use-sync-external-store)[\\/]/;

// The dashboard's charts (G2 and what it draws with): loaded with the first chart only, in parts
// under the bundler's warning size.
const CHARTS = /[\\/]node_modules[\\/](@antv|@ant-design[\\/](charts|plots|graphs|charts-util)|d3-[\w-]+)[\\/]/;

// Served under /admin/ next to the portal, itself under PUBLIC_URL's path: the build's URLs are
// relative, and the server addresses the shell's files from where it serves them.
export default defineConfig({
  base: './',
  plugins: [react(), splitWordLists(), precompress()],
  resolve: sharedResolve,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Grouped by hand: the framework, the password-strength word lists and the dashboard's charts;
        // antd stays split by use, so the users and groups screens (tables, forms) load with their own chunk.
        codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }, wordListChunks, { name: 'charts', test: CHARTS, minSize: 200_000, maxSize: 450_000 }] },
        // G2's modules import one another in cycles: split into parts, they must still run in the
        // order the bundle would run them in one chunk.
        strictExecutionOrder: true,
      },
    },
  },
});
