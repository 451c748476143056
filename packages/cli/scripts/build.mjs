// Builds the CLI with the repository's TypeScript: the CLI and the SDK's sources it imports
// compile into dist/cli/src and dist/sdk/src, and dist/herald.js (the package's bin) starts
// it. `node scripts/build.mjs [outDir]`: outDir defaults to dist (the tests build elsewhere).
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '..');
const out = path.resolve(here, process.argv[2] ?? 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(out, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json'), '--outDir', out], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(path.join(out, 'package.json'), '{ "type": "module" }\n');
const bin = path.join(out, 'herald.js');
writeFileSync(bin, "#!/usr/bin/env node\nimport './cli/src/herald.js';\n");
chmodSync(bin, 0o755);
