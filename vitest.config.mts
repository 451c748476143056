import { defineConfig } from 'vitest/config';
import path from 'node:path';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['server/**/*.test.ts', 'prisma/**/*.test.ts', 'inngest/**/*.test.ts', 'app/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['./server/testing/global-setup.ts'],
    setupFiles: ['./server/testing/per-file-database.ts', './server/testing/test-secrets.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
