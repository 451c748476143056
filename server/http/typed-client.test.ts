// The typed-client example (docs/examples/typed-client.ts) compiles under `tsc --strict`
// against types that openapi-typescript generates from the current contract document — the
// way an integrator would build it — so a change to the document that breaks typed clients
// (a lost enum, a loosened type, an error code narrowed away) fails here.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const installed = (name: string): boolean => {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
};
// Both are devDependencies; a checkout installed without them cannot run this check.
const tools = installed('openapi-typescript') && installed('openapi-fetch');

describe('the typed-client example', () => {
  it.skipIf(!tools)(
    'compiles under --strict against types generated from the live document',
    async () => {
      // Named through a variable: the type checker must not need the package to check this file.
      const generator = 'openapi-typescript';
      const { default: openapiTS, astToString } = (await import(generator)) as {
        default: (schema: unknown) => Promise<unknown>;
        astToString: (ast: unknown) => string;
      };
      const dir = path.resolve('.data', `typed-client-${randomBytes(4).toString('hex')}`);
      mkdirSync(dir, { recursive: true });
      try {
        const ast = await openapiTS(buildOpenApiDocument());
        writeFileSync(path.join(dir, 'herald-api.d.ts'), astToString(ast));
        for (const file of ['typed-client.ts', 'tsconfig.json']) copyFileSync(path.resolve('docs/examples', file), path.join(dir, file));
        const result = await run(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json')]).catch(
          (err: { stdout: string; stderr: string; code: number }) => err,
        );
        const output = `${result.stdout}${result.stderr}`;
        expect('code' in result ? result.code : 0, output).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
