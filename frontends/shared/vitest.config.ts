import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { sharedResolve } from '../vite.shared.ts';
import { sharedTestOptions } from '../vitest.shared.ts';

export default defineConfig({ plugins: [react()], resolve: sharedResolve, test: sharedTestOptions });
