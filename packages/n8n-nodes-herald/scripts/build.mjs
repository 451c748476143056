// `npm run build`: compiles credentials/ and nodes/ to dist/ (CommonJS, as n8n loads community
// nodes) with TypeScript, then copies the icons next to the files that name them.
// `node scripts/build.mjs [outDir]`: outDir defaults to dist (the tests build elsewhere).
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '..');
const out = path.resolve(here, process.argv[2] ?? 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(out, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json'), '--outDir', out], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);

function copyIcons(dir) {
  for (const name of readdirSync(path.join(here, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(here, rel)).isDirectory()) copyIcons(rel);
    else if (/\.(svg|png)$/.test(name)) cpSync(path.join(here, rel), path.join(out, rel));
  }
}
for (const dir of ['credentials', 'nodes']) copyIcons(dir);
