// Herald against a bare node:http + pg server doing the same database work
// (bench/bare-api.ts), on one PostgreSQL, for GET /posts?limit=50, GET /posts/{id} and
// POST /posts with 3 targets — on both hostings side by side: Herald's own server as
// `npm start` runs it (the API on its fast path) and `next start` (the App Router route
// handlers, a serverless host's path). Rounds are interleaved (Herald, next start, bare, …)
// because absolute numbers drift on a shared machine: the ratio is what counts. Prints req/s
// with CLIENTS concurrent clients, the ratio, and one-client medians.
// Route 4 is the floor: a route without key or database (the tool setup snippets), which
// shows what the hosting alone costs per request.
//   npx tsx bench/api-vs-raw.ts   (CLIENTS=20 ROUNDS=3 SECONDS=3 SERIAL=200)
// HOSTINGS=herald (or next) measures one hosting only. HERALD=facade runs the bench-only REST
// facade on plain node:http instead (no Next at all), to separate the framework's share.
// Route 5 is the tool path: `tools/call posts_list` on /public/v1/mcp against route 1 on the
// same Herald server (both run the same procedure); the target is at most 1.2× the REST cost (cost: the inverse of
// throughput; the server CPU per call is printed beside it).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchWorkspace, withBenchDatabase } from './bench-database';
import { ensureBuild, startApp } from './chaos/app-process';
import { CLIENTS, closeLoad, cpuMsPerRequest, median, medianMs, request, ROUNDS, SECONDS, SERIAL, throughput, type Route } from './http-load';

const HERALD_PORT = 3390;
const BARE_PORT = 3391;
const NEXT_PORT = 3393;

process.env.RATE_LIMIT_PER_MINUTE = '100000000';
const FACADE = process.env.HERALD === 'facade';
if (!FACADE) ensureBuild();

/** A bench server in its own process; resolves once it says it is listening. */
async function spawnServer(script: string, url: string, port: number) {
  // CPU_PROF=<dir> profiles the Herald side (summary: bench/cpu-profile-summary.ts).
  const prof = process.env.CPU_PROF && script !== 'bare-api.ts' ? ['--cpu-prof', '--cpu-prof-dir', process.env.CPU_PROF] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', path.join(import.meta.dirname, script)], {
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: url, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve()));
  return {
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** A session on the tool endpoint (initialize, then initialized), for route 5. */
async function mcpSession(auth: string, port: number): Promise<Record<string, string>> {
  const accept = { accept: 'application/json, text/event-stream' };
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const res = await fetch(`http://127.0.0.1:${port}/public/v1/mcp`, {
    method: 'POST',
    headers: { Authorization: auth, 'content-type': 'application/json', ...accept },
    body: initialize,
  });
  const session = res.headers.get('mcp-session-id');
  await res.arrayBuffer();
  if (!session) throw new Error(`initialize answered ${res.status} without a session`);
  const headers = { ...accept, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
  await request(
    port,
    {
      name: 'initialized',
      method: 'POST',
      path: '/public/v1/mcp',
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      headers,
      expect: 202,
    },
    auth,
  );
  return headers;
}

/** Route 5: the tool path against the REST route it wraps, on the same Herald server, interleaved. */
async function toolPath(rest: Route, auth: string, hosting: { name: string; port: number; pid: number }) {
  const port = hosting.port;
  const tool: Route = {
    name: 'tools/call posts_list',
    method: 'POST',
    path: '/public/v1/mcp',
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'posts_list', arguments: { limit: 50 } } }),
    headers: await mcpSession(auth, port),
    expect: 200,
  };
  for (const r of [rest, tool]) await throughput(port, r, auth, 1); // warm-up
  const [rq, tq, rm, tm, rc, tc]: number[][] = [[], [], [], [], [], []];
  for (let r = 0; r < ROUNDS; r++) {
    const restRun = await cpuMsPerRequest(hosting.pid, () => throughput(port, rest, auth, SECONDS));
    const toolRun = await cpuMsPerRequest(hosting.pid, () => throughput(port, tool, auth, SECONDS));
    rq.push(restRun.rps);
    rc.push(restRun.cpuMs);
    tq.push(toolRun.rps);
    tc.push(toolRun.cpuMs);
    rm.push(await medianMs(port, rest, auth, Math.ceil(SERIAL / ROUNDS)));
    tm.push(await medianMs(port, tool, auth, Math.ceil(SERIAL / ROUNDS)));
  }
  const [R, T, RM, TM, RC, TC] = [rq, tq, rm, tm, rc, tc].map(median) as [number, number, number, number, number, number];
  console.log(
    `\ntool path (${hosting.name}): ${tool.name} ${T.toFixed(0)} calls/s vs ${rest.name} ${R.toFixed(0)} req/s → ${(R / T).toFixed(2)}× the REST cost; p50 ${TM.toFixed(2)} vs ${RM.toFixed(2)} ms (${(TM / RM).toFixed(2)}×); server CPU per call ${TC.toFixed(3)} vs ${RC.toFixed(3)} ms (${(TC / RC).toFixed(2)}×); target ≤ 1.2×`,
  );
}

await withBenchDatabase(async (url) => {
  const { createApiKey } = await import('@/server/api-keys/mint-api-key');
  const { SCOPES } = await import('@/server/auth/scopes');
  const { createPost } = await import('@/server/posts/create-post');
  const { workspace, connections } = await benchWorkspace([{ platform: 'linkedin', count: 3 }]);
  const connectionIds = connections.map((c) => c.id);
  let first = '';
  for (let i = 0; i < 50; i++) first = (await createPost(workspace.id, { content: `post ${i}`, connectionIds })).post.id;
  const { secret } = await createApiKey({ workspaceId: workspace.id, name: 'bench', scopes: SCOPES, expiresAt: null });
  const auth = `Bearer ${secret}`;

  const logDir = os.tmpdir();
  const wanted = (process.env.HOSTINGS ?? 'herald,next').split(',');
  const app = (hosting: 'herald' | 'next', port: number) =>
    startApp({
      hosting,
      port,
      databaseUrl: url,
      logFile: path.join(logDir, `herald-api-vs-raw-${hosting}.log`),
      env: { RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE! },
      nodeArgs: [
        ...(process.env.CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] : []),
        ...(process.env.HERALD_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ],
    });
  const hostings: { name: string; port: number; pid: number; stop: () => Promise<void> }[] = [];
  if (FACADE) hostings.push({ name: 'facade (bench-only)', port: HERALD_PORT, ...(await spawnServer('facade-server.ts', url, HERALD_PORT)) });
  else {
    if (wanted.includes('herald')) hostings.push({ name: 'npm start', port: HERALD_PORT, ...(await app('herald', HERALD_PORT)) });
    if (wanted.includes('next')) hostings.push({ name: 'next start', port: NEXT_PORT, ...(await app('next', NEXT_PORT)) });
  }
  const bare = await spawnServer('bare-api.ts', url, BARE_PORT);

  const only = process.env.ROUTES?.split(',');
  const routes: Route[] = [
    { name: 'GET /posts?limit=50', method: 'GET', path: '/public/v1/posts?limit=50', expect: 200 },
    { name: 'GET /posts/{id}', method: 'GET', path: `/public/v1/posts/${first}`, expect: 200 },
    { name: 'POST /posts (3 targets)', method: 'POST', path: '/public/v1/posts', body: JSON.stringify({ content: 'Bench post', connectionIds }), expect: 201 },
    // The floor: a route with no key, no database and a small fixed body. What Herald loses
    // here is the hosting's own cost per request, which no change to Herald's layers reaches.
    { name: 'floor: GET /mcp/setup', method: 'GET', path: '/public/v1/mcp/setup', expect: 200 },
  ];
  try {
    console.log(
      `Herald (${hostings.map((h) => h.name).join(', ')}) vs bare node:http + pg — ${CLIENTS} concurrent clients, ${ROUNDS} interleaved rounds of ${SECONDS} s, ${SERIAL} serial requests`,
    );
    console.log(
      'route                      | hosting     | Herald req/s | bare req/s | ratio | Herald p50 (1 client) | bare p50 | overhead | server CPU per request, Herald vs bare',
    );
    for (const route of routes.filter((r, i) => !only || only.includes(String(i + 1)))) {
      for (const port of [...hostings.map((h) => h.port), BARE_PORT]) await throughput(port, route, auth, 1); // warm-up
      const runs = hostings.map(() => ({ rps: [] as number[], cpu: [] as number[], p50: [] as number[] }));
      const [b, bm, bc]: number[][] = [[], [], []];
      for (let r = 0; r < ROUNDS; r++) {
        for (const [i, h] of hostings.entries()) {
          const measured = await cpuMsPerRequest(h.pid, () => throughput(h.port, route, auth, SECONDS));
          runs[i]!.rps.push(measured.rps);
          runs[i]!.cpu.push(measured.cpuMs);
          runs[i]!.p50.push(await medianMs(h.port, route, auth, Math.ceil(SERIAL / ROUNDS)));
        }
        const baseline = await cpuMsPerRequest(bare.pid, () => throughput(BARE_PORT, route, auth, SECONDS));
        b.push(baseline.rps);
        bc.push(baseline.cpuMs);
        bm.push(await medianMs(BARE_PORT, route, auth, Math.ceil(SERIAL / ROUNDS)));
      }
      const [B, BM, BC] = [b, bm, bc].map(median) as [number, number, number];
      for (const [i, h] of hostings.entries()) {
        const [H, HM, HC] = [runs[i]!.rps, runs[i]!.p50, runs[i]!.cpu].map(median) as [number, number, number];
        console.log(
          `${route.name.padEnd(26)} | ${h.name.padEnd(11)} | ${H.toFixed(0).padStart(12)} | ${B.toFixed(0).padStart(10)} | ${(H / B).toFixed(2).padStart(5)} | ${HM.toFixed(2).padStart(18)} ms | ${BM.toFixed(2).padStart(5)} ms | +${(HM - BM).toFixed(2)} ms | ${HC.toFixed(3)} vs ${BC.toFixed(3)} ms`,
        );
      }
    }
    if (!only || only.includes('5')) for (const h of hostings) await toolPath(routes[0]!, auth, h);
  } finally {
    await bare.stop();
    for (const h of hostings) await h.stop();
    closeLoad();
    await sleep(100);
  }
});
