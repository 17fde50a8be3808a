import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served under /admin/ next to the portal, so asset URLs must carry the prefix.
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
