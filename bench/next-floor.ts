// What the hosting alone costs per request, outside Herald: a fresh Next.js app (this
// project's own Next.js version, built in a temporary folder) with one App Router route
// handler and one Pages Router API route, both answering the same fixed 1.9 kB JSON, against
// a plain node:http server answering it too. Interleaved rounds; prints req/s with CLIENTS
// concurrent clients, the one-client median, and the server's CPU time per request (from
// /proc, so independent of what the load client costs). docs/performance.md, "The floor".
//   npx tsx bench/next-floor.ts   (CLIENTS=20 ROUNDS=3 SECONDS=3 SERIAL=200)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeLoad, CLIENTS, cpuMsPerRequest, median, medianMs, ROUNDS, SECONDS, SERIAL, throughput, type Route } from './http-load';

const ROOT = path.resolve(import.meta.dirname, '..');
const NEXT_BIN = path.join(ROOT, 'node_modules/next/dist/bin/next');
const NEXT_PORT = 3392;
const PLAIN_PORT = 3393;
const BODY = JSON.stringify({ note: 'x'.repeat(1900) });

const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'next-floor', private: true }),
  // The settings Herald runs with that bear on a request: no compression layer, no x-powered-by.
  'next.config.mjs': `export default { poweredByHeader: false, compress: false, turbopack: { root: '/' } };`,
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      lib: ['dom', 'esnext'],
      jsx: 'react-jsx',
      module: 'esnext',
      moduleResolution: 'bundler',
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      isolatedModules: true,
      esModuleInterop: true,
      allowJs: true,
    },
    include: ['**/*.ts', '**/*.tsx'],
    exclude: ['node_modules'],
  }),
  'app/layout.tsx': `export default function Layout({ children }: { children: React.ReactNode }) { return <html><body>{children}</body></html>; }`,
  'app/floor/route.ts': `export const dynamic = 'force-dynamic';
const body = ${JSON.stringify(BODY)};
export function GET(): Response { return new Response(body, { headers: { 'content-type': 'application/json' } }); }`,
  'pages/api/floor.ts': `import type { NextApiRequest, NextApiResponse } from 'next';
const body = ${JSON.stringify(BODY)};
export const config = { api: { bodyParser: false } };
export default function handler(_req: NextApiRequest, res: NextApiResponse) { res.setHeader('content-type', 'application/json'); res.end(body); }`,
};

const PLAIN_SERVER = `
import http from 'node:http';
const body = ${JSON.stringify(BODY)};
http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); })
  .listen(${PLAIN_PORT}, '127.0.0.1');
process.on('SIGINT', () => process.exit(0));`;

async function waitFor(port: number, p: string, child: ChildProcess): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server for :${port} exited`);
    if (Date.now() - started > 60_000) throw new Error(`:${port} did not answer within 60 s`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}${p}`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-next-floor-'));
const children: ChildProcess[] = [];
try {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  console.log(`building a fresh Next.js app in ${dir}`);
  const build = spawnSync(process.execPath, [NEXT_BIN, 'build'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (build.status !== 0) throw new Error('next build failed');

  const env = { ...process.env, NODE_ENV: 'production' as const, NEXT_TELEMETRY_DISABLED: '1' };
  const next = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(NEXT_PORT), '-H', '127.0.0.1'], { cwd: dir, env, stdio: 'ignore' });
  const plain = spawn(process.execPath, ['--input-type=module', '-e', PLAIN_SERVER], { env, stdio: 'ignore' });
  children.push(next, plain);
  await waitFor(NEXT_PORT, '/floor', next);
  await waitFor(PLAIN_PORT, '/', plain);

  const hosts: { name: string; port: number; pid: number; route: Route }[] = [
    { name: 'Next.js App Router route handler', port: NEXT_PORT, pid: next.pid!, route: { name: 'app', method: 'GET', path: '/floor', expect: 200 } },
    { name: 'Next.js Pages Router API route', port: NEXT_PORT, pid: next.pid!, route: { name: 'pages', method: 'GET', path: '/api/floor', expect: 200 } },
    { name: 'plain node:http', port: PLAIN_PORT, pid: plain.pid!, route: { name: 'plain', method: 'GET', path: '/', expect: 200 } },
  ];
  const results = hosts.map(() => ({ rps: [] as number[], p50: [] as number[], cpu: [] as number[] }));
  for (const h of hosts) await throughput(h.port, h.route, undefined, 1); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, h] of hosts.entries()) {
      const { rps, cpuMs } = await cpuMsPerRequest(h.pid, () => throughput(h.port, h.route, undefined, SECONDS));
      results[i]!.cpu.push(cpuMs);
      results[i]!.rps.push(rps);
      results[i]!.p50.push(await medianMs(h.port, h.route, undefined, Math.ceil(SERIAL / ROUNDS)));
    }
  }
  console.log(`the floor: a fixed ${BODY.length}-byte JSON, ${CLIENTS} concurrent clients, ${ROUNDS} interleaved rounds of ${SECONDS} s`);
  console.log('host                              |   req/s | p50 (1 client) | server CPU per request');
  for (const [i, h] of hosts.entries()) {
    const { rps, p50, cpu } = results[i]!;
    console.log(`${h.name.padEnd(33)} | ${median(rps).toFixed(0).padStart(7)} | ${median(p50).toFixed(2).padStart(11)} ms | ${median(cpu).toFixed(3)} ms`);
  }
} finally {
  for (const c of children) c.kill('SIGINT');
  closeLoad();
  await sleep(200);
  rmSync(dir, { recursive: true, force: true });
}
