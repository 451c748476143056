// Generates the Prisma client (TypeScript, Rust-free `prisma-client` generator).
// PRISMA_SCHEMA_ENGINE_BINARY points at any existing file so the CLI does not try to
// download a native engine: generation does not need one.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const result = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
});
process.exit(result.status ?? 1);
