// Builds dist/esm (ES modules) and dist/cjs (CommonJS, with its own {"type":"commonjs"}
// package.json) with the repository's TypeScript. `node scripts/build.mjs [outDir]`:
// outDir defaults to dist (the tests build into a temporary folder).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '..');
const out = path.resolve(here, process.argv[2] ?? 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(out, { recursive: true, force: true });
for (const format of ['esm', 'cjs']) {
  const config = path.join(here, `tsconfig.${format}.json`);
  const result = spawnSync(process.execPath, [tsc, '-p', config, '--outDir', path.join(out, format)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
mkdirSync(path.join(out, 'cjs'), { recursive: true });
writeFileSync(path.join(out, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
