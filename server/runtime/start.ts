// `npm start`: Herald on http://localhost:$PORT with no other setup.
// 1. database: DATABASE_URL, or the embedded PostgreSQL (started here, or joined if another
//    Herald process already runs it), migrations applied;
// 2. a production build when there is none;
// 3. Herald's server as a child process (serve.mjs: one node:http listener, the API on its
//    fast path and Next.js for everything else); the local job runner starts inside it
//    (instrumentation.ts) unless Inngest is configured.
// On SIGINT/SIGTERM the server stops, then the embedded database if this process started it.
// Every child (next build, the server, the embedded PostgreSQL) stays in this process group,
// so a supervisor may signal the whole group, as Ctrl-C in a terminal or .ci/run do: PostgreSQL
// begins a smart shutdown (SIGTERM: it waits for the server to disconnect) or a fast one
// (SIGINT), and once the server has exited this script stops it if it still runs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { checkConfiguration, env } from '@/server/config/env';
import { MAX_HTTP_HEADER_BYTES } from '@/server/shared/http-limits';
import { ensureGeneratedSecrets, prepareDatabase, ROOT } from './prepare';

const started = Date.now();
const log = (msg: string) => console.log(`[herald] ${msg}`);

async function main(): Promise<void> {
  checkConfiguration();
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  process.env.AUTH_TRUST_HOST ??= 'true';
  // Sign-in follows the address the browser opened unless an address is configured: the
  // embedded default then works on http://localhost, http://127.0.0.1 or the machine's name
  // alike (a fixed AUTH_URL sent 127.0.0.1 users back to localhost without their cookie).
  if (env.configuredBaseUrl()) process.env.AUTH_URL = env.authUrl() ?? env.baseUrl();
  ensureGeneratedSecrets();

  const source = env.databaseUrl() ? 'DATABASE_URL' : `embedded PostgreSQL in ${env.dataDir()}/postgres`;
  const url = await prepareDatabase();
  log(`database ready (${source}): ${url.replace(/\/\/[^@]*@/, '//')}`);

  const nextBin = path.join(ROOT, 'node_modules/next/dist/bin/next');
  if (!existsSync(path.join(ROOT, '.next/BUILD_ID'))) {
    log('no production build yet: running next build (a few minutes, once)');
    const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: ROOT, stdio: 'inherit', env: process.env });
    if (build.status !== 0) throw new Error('next build failed');
  }

  const port = String(env.port());
  // The header limit is stated, not inherited: requests over it are answered 431 in the flat
  // error shape (docs/decisions.md → Requests and transport).
  const serve = path.join(ROOT, 'server/runtime/serve.mjs');
  const child = spawn(
    process.execPath,
    [`--max-http-header-size=${MAX_HTTP_HEADER_BYTES}`, serve, `--port=${port}`, `--max-header-size=${MAX_HTTP_HEADER_BYTES}`],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    },
  );
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (/listening on port/i.test(chunk.toString())) log(`ready on ${env.baseUrl()} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    child.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const code = await new Promise<number>((resolve) => child.on('exit', (c, s) => resolve(c ?? (s ? 0 : 1))));
  const { stopEmbeddedIfOwned } = await import('@/server/db/url');
  await stopEmbeddedIfOwned();
  process.exit(code);
}

main().catch(async (err: unknown) => {
  console.error('[herald] failed to start:', err);
  process.exit(1);
});
