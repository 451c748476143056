// `npm test` in packages/sdk (or `npx vitest run --root packages/sdk`): the SDK's tests with
// the repository's test set-up — they start a real Herald, which needs the `@/` paths, the
// migrated template database and the per-file databases. The root config runs them too.
import { defineConfig } from 'vitest/config';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');

export default defineConfig({
  resolve: { alias: { '@': repo } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: [path.join(repo, 'server/testing/global-setup.ts')],
    setupFiles: [path.join(repo, 'server/testing/per-file-database.ts'), path.join(repo, 'server/testing/test-secrets.ts')],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
