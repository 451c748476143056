// `npm test`: the SDK's build (packages/sdk), the CLI's (packages/cli), the n8n nodes' install
// (their own lockfile, when packages/n8n-nodes-herald/node_modules is missing) and build,
// Vitest (unit + integration, each test file on its own database, the packages' tests
// included) and then Playwright against a production build, on DATABASE_URL's server or the
// embedded one.
// Ends with the Playwright summary line.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { buildIsStale, ensureGeneratedSecrets, ensurePrismaClient, ROOT } from './prepare';
import { env } from '@/server/config/env';

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): number {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env });
  return res.status ?? 1;
}

async function main(): Promise<number> {
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  ensurePrismaClient();
  ensureGeneratedSecrets();
  const { resolveServerUrl, withDatabase, ensureDatabaseExists, dropDatabase, stopEmbeddedIfOwned } = await import('@/server/db/url');
  const serverUrl = await resolveServerUrl();
  const node = process.execPath;
  try {
    const sdk = run(node, [path.join(ROOT, 'packages/sdk/scripts/build.mjs')], process.env);
    if (sdk !== 0) return sdk;
    const cli = run(node, [path.join(ROOT, 'packages/cli/scripts/build.mjs')], process.env);
    if (cli !== 0) return cli;
    const n8nNodes = path.join(ROOT, 'packages/n8n-nodes-herald');
    if (!existsSync(path.join(n8nNodes, 'node_modules/n8n-core'))) {
      // Install scripts stay off: the only ones are native add-ons of n8n's server (profiler, ssh), unused here.
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const installed = run(npm, ['ci', '--prefix', n8nNodes, '--ignore-scripts', '--no-audit', '--no-fund'], process.env);
      if (installed !== 0) return installed;
    }
    const nodes = run(node, [path.join(n8nNodes, 'scripts/build.mjs')], process.env);
    if (nodes !== 0) return nodes;
    const unit = run(node, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run'], { ...process.env, DATABASE_URL: serverUrl });
    if (unit !== 0) return unit;
    if (env.skipE2e()) return 0;

    if (buildIsStale()) {
      const built = run(node, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], process.env);
      if (built !== 0) return built;
    }
    const e2eUrl = withDatabase(serverUrl, `herald_e2e_${randomBytes(4).toString('hex')}`);
    await ensureDatabaseExists(e2eUrl);
    try {
      const { deployMigrations } = await import('@/prisma/scripts/migrate');
      await deployMigrations({ url: e2eUrl });
      return run(node, [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test'], { ...process.env, DATABASE_URL: e2eUrl });
    } finally {
      await dropDatabase(e2eUrl).catch(() => {});
    }
  } finally {
    await stopEmbeddedIfOwned();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
