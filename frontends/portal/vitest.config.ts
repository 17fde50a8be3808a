import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedTestOptions } from '../vitest.shared.ts';
import viteConfig from './vite.config.ts';

export default mergeConfig(viteConfig, defineConfig({ test: sharedTestOptions }));
