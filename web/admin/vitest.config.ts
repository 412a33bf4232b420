import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Standalone runner for the back-office's browser tests (the root config's `e2e` project runs the same files).
export default defineConfig({
  test: {
    root: path.resolve(import.meta.dirname, '../..'),
    include: ['web/admin/e2e/**/*.e2e.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
