// One Herald app process (Herald's server as `npm start` runs it, or `next start`; background
// jobs inside it) that the chaos scenarios and benches can start, kill -9 and start again. It runs in its own process group so a kill reaches
// everything it spawned and nothing else.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildIsStale, ensureGeneratedSecrets, ROOT } from '@/server/runtime/prepare';
import { MAX_HTTP_HEADER_BYTES } from '@/server/shared/http-limits';

export interface AppProcess {
  baseUrl: string;
  pid: number;
  /** Milliseconds from spawn to the first answered request. */
  readyMs: number;
  /** SIGKILL to the whole process group: no shutdown hooks, no goodbyes. */
  kill9(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

const NEXT_BIN = path.join(ROOT, 'node_modules/next/dist/bin/next');
/** Herald's server entry, as `npm start` runs it (server/runtime/start.ts). */
const SERVE = path.join(ROOT, 'server/runtime/serve.mjs');

/** Builds once when the production build is missing or older than the sources. */
export function ensureBuild(): void {
  if (!buildIsStale()) return;
  console.log('chaos: building the app first (next build)');
  const res = spawnSync(process.execPath, [NEXT_BIN, 'build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (res.status !== 0) throw new Error('next build failed');
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

export async function startApp(opts: {
  port: number;
  databaseUrl: string;
  logFile: string;
  env?: Record<string, string>;
  /** Extra arguments for node itself (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /**
   * herald (default): Herald's own server, what `npm start` and the image run (the API on its
   * fast path); next: `next start`, the App Router route handlers (a serverless host's path).
   */
  hosting?: 'herald' | 'next';
}): Promise<AppProcess> {
  ensureGeneratedSecrets();
  const baseUrl = `http://localhost:${opts.port}`;
  const log = openSync(opts.logFile, 'a');
  const started = Date.now();
  const entry =
    opts.hosting === 'next'
      ? [NEXT_BIN, 'start', '-p', String(opts.port)]
      : [`--max-http-header-size=${MAX_HTTP_HEADER_BYTES}`, SERVE, `--port=${opts.port}`, `--max-header-size=${MAX_HTTP_HEADER_BYTES}`];
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...entry], {
    cwd: ROOT,
    detached: true, // its own process group
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      NODE_ENV: 'production',
      DATABASE_URL: opts.databaseUrl,
      PORT: String(opts.port),
      HERALD_BASE_URL: baseUrl,
      AUTH_URL: baseUrl,
      AUTH_TRUST_HOST: 'true',
      ...opts.env,
    },
  });
  const pid = child.pid!;
  const gone = exited(child);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited while starting (see ${opts.logFile})`);
    if (Date.now() - started > 120_000) throw new Error(`the app did not answer within 120 s (see ${opts.logFile})`);
    try {
      const res = await fetch(`${baseUrl}/public/v1/openapi.json`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  const readyMs = Date.now() - started;
  const signal = async (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      return; // already gone
    }
    await Promise.race([gone, sleep(15_000)]);
  };
  return { baseUrl, pid, readyMs, kill9: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}
