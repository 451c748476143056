// The package as published: the build script makes an ES module and a CommonJS build, each
// loadable by Node with the exports package.json points at.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = path.resolve(import.meta.dirname, '..');
/**
 * The size budget of the hand-written client: the JavaScript an application ships (the ES
 * module build, as tsc emits it, unminified; the generated types add none). README.md states it.
 */
const SDK_JS_BUDGET_KB = 24;
const out = mkdtempSync(path.join(os.tmpdir(), 'herald-sdk-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the build', () => {
  it('emits ESM and CJS with declarations, both loadable', async () => {
    execFileSync(process.execPath, [path.join(here, 'scripts/build.mjs'), out], { stdio: 'pipe' });
    const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: '@herald/sdk', type: 'module', engines: { node: '>=18' } });
    expect(JSON.parse(readFileSync(path.join(out, 'cjs/package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    for (const file of ['esm/index.js', 'esm/index.d.ts', 'cjs/index.js', 'cjs/index.d.ts']) expect(statSync(path.join(out, file)).size).toBeGreaterThan(0);

    const names = ['createHerald', 'HeraldError', 'verifyWebhook', 'WebhookVerificationError'];
    const cjs = createRequire(import.meta.url)(path.join(out, 'cjs/index.js'));
    const esm = await import(pathToFileURL(path.join(out, 'esm/index.js')).href);
    for (const mod of [cjs, esm]) for (const name of names) expect(typeof mod[name], name).toBe('function');
    // The generated types are types only: nothing of them reaches the JavaScript.
    expect(statSync(path.join(out, 'esm/generated/openapi.js')).size).toBeLessThan(100);

    const js = readdirSync(path.join(out, 'esm'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    const bytes = js.reduce((n, f) => n + statSync(path.join(out, 'esm', f)).size, 0);
    console.log(`@herald/sdk: ${(bytes / 1024).toFixed(1)} KB of JavaScript (ESM, unminified), budget ${SDK_JS_BUDGET_KB} KB`);
    expect(bytes).toBeLessThanOrEqual(SDK_JS_BUDGET_KB * 1024);
    expect(readFileSync(path.join(here, 'README.md'), 'utf8')).toContain(`${SDK_JS_BUDGET_KB} KB`);
  }, 120_000);
});
