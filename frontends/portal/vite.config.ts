import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress, sharedResolve, splitWordLists, wordListChunks } from '../vite.shared.ts';

// What every page needs before anything else: one long-cached chunk, apart from the app's code.
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|use-sync-external-store)[\\/]/;

export default defineConfig({
  // Relative: the build serves from wherever the product is mounted (PUBLIC_URL's path); the
  // server addresses the shell's files from there.
  base: './',
  // Brotli and gzip twins of the built files, sent by the server to browsers that accept them.
  plugins: [react(), splitWordLists(), precompress()],
  resolve: sharedResolve,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Only the framework is grouped by hand. antd stays split by use, so the sign-in page
        // never downloads the shell's components (drawer, pop-over, skeleton).
        codeSplitting: { groups: [{ name: 'framework', test: FRAMEWORK }, wordListChunks] },
      },
    },
  },
});
