// What the container image runs, checked without Docker: builds Next's standalone output
// (HERALD_STANDALONE=1, as the Dockerfile does) in a copy of the project, lays it out as the
// image does (.next/static, public, Herald's server entry), runs `node server/runtime/serve.mjs`
// on a migrated, seeded database and asks it for its health (the API on its fast path), the
// sign-in page and an API call. Prints PASS/FAIL lines.
//   npx tsx bench/deploy/standalone-check.ts     (on DATABASE_URL's server or the embedded one)
import { PLATFORMS } from '@/server/shared/platforms';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from '@/server/runtime/prepare';
import { allPassed, check, exitWith, summary } from '../chaos/report';

const SCENARIO = 'standalone server';
/** Herald's server entry, plain JavaScript: what the image's CMD runs (Dockerfile). */
const SERVER_ENTRY = ['server/runtime/serve.mjs', 'server/runtime/http-server.mjs'];
const PORT = 3431;

async function main(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-standalone-'));
  // The project's tracked files, and node_modules hard-linked (a symlink outside the root is
  // refused by the bundler).
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    cpSync(path.join(ROOT, f), path.join(dir, f));
  }
  execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules')]);
  const build = spawnSync(process.execPath, ['prisma/scripts/generate.mjs'], { cwd: dir, stdio: 'ignore' });
  const next = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
    cwd: dir,
    env: { ...process.env, HERALD_STANDALONE: '1', NEXT_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
  });
  check(SCENARIO, 'next build with HERALD_STANDALONE=1 makes .next/standalone', build.status === 0 && next.status === 0, `exit ${next.status}`);
  if (next.status !== 0) {
    console.log(next.stdout.slice(-2000), next.stderr.slice(-2000));
    return 1;
  }
  const standalone = path.join(dir, '.next/standalone');
  cpSync(path.join(dir, '.next/static'), path.join(standalone, '.next/static'), { recursive: true });
  cpSync(path.join(dir, 'public'), path.join(standalone, 'public'), { recursive: true });
  // As the Dockerfile copies them: Next's standalone output does not trace a custom server.
  for (const entry of SERVER_ENTRY) cpSync(path.join(dir, entry), path.join(standalone, entry));

  const { resolveServerUrl, withDatabase, ensureDatabaseExists, dropDatabase, stopEmbeddedIfOwned } = await import('@/server/db/url');
  const { deployMigrations } = await import('@/prisma/scripts/migrate');
  const url = withDatabase(await resolveServerUrl(), `herald_standalone_${randomBytes(3).toString('hex')}`);
  await ensureDatabaseExists(url);
  let server: ReturnType<typeof spawn> | undefined;
  try {
    await deployMigrations({ url });
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'prisma/seed.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
      encoding: 'utf8',
    });
    const apiKey = (JSON.parse(seeded.stdout.trim().split('\n').at(-1)!) as { apiKey: string }).apiKey;
    const base = `http://127.0.0.1:${PORT}`;
    server = spawn(process.execPath, ['server/runtime/serve.mjs'], {
      cwd: standalone,
      detached: true,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        PORT: String(PORT),
        HOSTNAME: '127.0.0.1',
        DATABASE_URL: url,
        HERALD_BASE_URL: base,
        AUTH_URL: base,
        AUTH_TRUST_HOST: 'true',
        AUTH_SECRET: randomBytes(32).toString('base64url'),
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64url'),
        MEDIA_SIGNING_SECRET: randomBytes(32).toString('base64url'),
        DATA_DIR: path.join(dir, 'data'),
      },
    });
    let health: { status: number; body: { status?: string; jobs?: { runner?: string }; http?: { apiFastPath?: boolean } } } = { status: 0, body: {} };
    for (let i = 0; i < 120; i++) {
      try {
        const res = await fetch(`${base}/api/health`);
        health = { status: res.status, body: await res.json() };
        if (health.body.jobs?.runner === 'running' && health.body.http?.apiFastPath) break;
      } catch {
        // not listening yet
      }
      await sleep(500);
    }
    check(
      SCENARIO,
      'the health check answers ok with the job runner running',
      health.status === 200 && health.body.status === 'ok',
      JSON.stringify(health.body),
    );
    check(
      SCENARIO,
      'the image serves the API on the fast path (Herald’s own server in front of Next)',
      health.body.http?.apiFastPath === true,
      JSON.stringify(health.body.http),
    );
    const api = await fetch(`${base}/public/v1/connections`, { headers: { Authorization: `Bearer ${apiKey}` } });
    const data = ((await api.json()) as { data?: unknown[] }).data;
    check(
      SCENARIO,
      'the API answers with the seeded key',
      // The seed: a demo account per network, one that refuses posts and one whose token expired.
      api.status === 200 && data?.length === PLATFORMS.length + 2,
      `GET /public/v1/connections → ${api.status}, ${data?.length} connections`,
    );
    const signin = await fetch(`${base}/signin`);
    check(SCENARIO, 'the app serves its pages and assets', signin.status === 200, `GET /signin → ${signin.status}`);
  } finally {
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
    await sleep(500);
    await dropDatabase(url).catch(() => {});
    await stopEmbeddedIfOwned();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(summary());
  return allPassed() ? 0 : 1;
}

exitWith(main());
