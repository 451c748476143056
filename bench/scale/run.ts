// `npm run scale-test`: one, two and four `next start` instances on one PostgreSQL behind a
// round-robin proxy, and the promises that must hold whatever the number of instances:
//   - the per-workspace rate limit holds across instances (within the documented lease error);
//   - scheduled posts are delivered once each (none missed, no target twice), with one
//     instance killed -9 in the middle of the burst when there are several;
//   - webhook deliveries are sent once each;
//   - a tool-endpoint session works whichever instance answers;
// and prints API throughput through the proxy for each count.
// Runs on DATABASE_URL's server (a database of its own per count) or the embedded one.
//   npm run scale-test   (INSTANCES=1,2,4 POSTS=10000 LATENCY_MS=200)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, existsSync, writeFileSync, rmSync, chmodSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureBuild, startApp, type AppProcess } from '../chaos/app-process';
import { allPassed, check, exitWith, summary } from '../chaos/report';

const COUNTS = (process.env.INSTANCES ?? '1,2,4').split(',').map(Number);
const POSTS = Number(process.env.POSTS ?? 10_000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 200);
const RATE_LIMIT = 1_000_000;
const POOLS: Record<number, { pool: number; jobs: number }> = { 1: { pool: 16, jobs: 32 }, 2: { pool: 10, jobs: 16 }, 4: { pool: 5, jobs: 6 } };
process.env.WEBHOOK_SECRET_KEY ||= randomBytes(32).toString('base64url');
process.env.OUTBOUND_ALLOW_HOSTS = '127.0.0.1';
process.env.RATE_LIMIT_PER_MINUTE = String(RATE_LIMIT);

/** Round-robin HTTP proxy over the live instances; counts which instance served what. */
function startProxy(targets: () => string[]) {
  let next = 0;
  const served = new Map<string, number>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const live = targets();
    const target = new URL(live[next++ % live.length]!);
    served.set(target.port, (served.get(target.port) ?? 0) + 1);
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise<{ url: string; served: Map<string, number>; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        served,
        close: () => {
          server.closeAllConnections();
          server.close();
          agent.destroy();
        },
      }),
    ),
  );
}

async function throughput(url: string, secret: string, seconds: number, clients = 20): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const res = await fetch(`${url}/public/v1/posts?limit=50`, { headers: { Authorization: `Bearer ${secret}` } });
        await res.arrayBuffer();
        if (res.status === 200) done++;
      }
    }),
  );
  return done / seconds;
}

async function scenario(instances: number, serverUrl: string, workDir: string, certFile: string): Promise<number> {
  const label = `${instances} instance${instances > 1 ? 's' : ''}`;
  const { withDatabase, ensureDatabaseExists, dropDatabase } = await import('@/server/db/url');
  const { deployMigrations } = await import('@/prisma/scripts/migrate');
  const url = withDatabase(serverUrl, `herald_scale_${instances}_${randomBytes(3).toString('hex')}`);
  await ensureDatabaseExists(url);
  await deployMigrations({ url });
  process.env.DATABASE_URL = url;
  const { db } = await import('@/server/db/client');
  const { closeAllConnections } = await import('@/server/db/connections');
  const { closeJobs } = await import('@/server/jobs');
  const { createSandboxConnection, createWorkspaceWithKey } = await import('@/server/testing/fixtures');
  const { createEndpoint } = await import('@/server/webhooks/endpoints');
  const { scheduleDelivery } = await import('@/server/posts/delivery/schedule');
  const { startWebhookReceiver } = await import('@/server/webhooks/testing/webhook-receiver');

  const receiver = await startWebhookReceiver({ record: false });
  writeFileSync(certFile, receiver.cert);
  const receipts = new Map<string, number>();
  receiver.onRequest = (r) => {
    const id = r.headers['x-service-delivery']!;
    receipts.set(id, (receipts.get(id) ?? 0) + 1);
  };

  const { workspace, secret } = await createWorkspaceWithKey();
  const connections: Array<{ id: string }> = [];
  for (let i = 0; i < 10; i++) connections.push(await createSandboxConnection(workspace.id, { platform: 'linkedin' }));
  await createEndpoint(workspace.id, { name: 'scale', url: receiver.url('/hook'), events: ['post.published'] });

  const apps: AppProcess[] = [];
  const journals: string[] = [];
  let live: string[] = [];
  try {
    for (let i = 0; i < instances; i++) {
      const journal = path.join(workDir, `journal-${instances}-${i}.ndjson`);
      journals.push(journal);
      apps.push(
        await startApp({
          port: 3400 + instances * 10 + i,
          databaseUrl: url,
          logFile: path.join(workDir, `app-${instances}-${i}.log`),
          env: {
            SANDBOX_LATENCY_MS: String(LATENCY_MS),
            SANDBOX_JOURNAL: journal,
            RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
            OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
            NODE_EXTRA_CA_CERTS: certFile,
            WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY!,
            // Connections per instance = pool + job concurrency + 2 (the queue) + 4 (rate
            // limit) + 1 (notifications); sized so every count fits PostgreSQL's default 100
            // with room for this script (docs/deploy.md → connection budget).
            DATABASE_POOL_SIZE: String(POOLS[instances]?.pool ?? 5),
            JOBS_CONCURRENCY: String(POOLS[instances]?.jobs ?? 6),
          },
        }),
      );
    }
    live = apps.map((a) => a.baseUrl);
    const proxy = await startProxy(() => live);
    try {
      // Throughput through the proxy.
      for (let i = 0; i < 50; i++) {
        await fetch(`${proxy.url}/public/v1/posts`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ content: `list filler ${i}`, connectionIds: connections.slice(0, 3).map((c) => c.id) }),
        });
      }
      await throughput(proxy.url, secret, 1);
      const rps = await throughput(proxy.url, secret, 5);
      console.log(`scale: ${label}: GET /posts?limit=50 through the proxy, 20 clients: ${rps.toFixed(0)} req/s`);

      // A tool-endpoint session, each request on the next instance.
      const mcp = new Client({ name: 'scale-test', version: '1' });
      let mcpOk = 0;
      let mcpError = '';
      try {
        await mcp.connect(
          new StreamableHTTPClientTransport(new URL('/public/v1/mcp', proxy.url), { requestInit: { headers: { Authorization: `Bearer ${secret}` } } }),
        );
        await mcp.listTools();
        for (let i = 0; i < 2 * instances + 2; i++) {
          const r = await mcp.callTool({ name: 'posts_list', arguments: { limit: 5 } });
          if (!r.isError) mcpOk++;
        }
        await mcp.close();
      } catch (err) {
        mcpError = String(err);
      }
      check(
        label,
        'a tool-endpoint session works whichever instance answers',
        mcpOk === 2 * instances + 2,
        `${mcpOk}/${2 * instances + 2} tool calls answered across ${instances} instance(s)${mcpError ? `; ${mcpError}` : ''}`,
      );

      // The rate limit across instances: another process already spent all but 300 of the window.
      const limited = await createWorkspaceWithKey();
      await db.rateLimit.create({ data: { key: `ws:${limited.workspace.id}`, points: RATE_LIMIT - 300, expire: BigInt(Date.now() + 60_000) } });
      let ok = 0;
      let refused = 0;
      for (let i = 0; i < 600; i += 20) {
        const statuses = await Promise.all(
          Array.from({ length: 20 }, () =>
            fetch(`${proxy.url}/public/v1/connections`, { headers: { Authorization: `Bearer ${limited.secret}` } }).then((r) => r.status),
          ),
        );
        ok += statuses.filter((s) => s === 200).length;
        refused += statuses.filter((s) => s === 429).length;
      }
      const bound = 30 * (instances - 1);
      check(
        label,
        'the rate limit holds across instances',
        ok <= 300 && ok >= 300 - bound && ok + refused === 600,
        `300 left in the window: ${ok} answered, ${refused} refused (documented error: up to ${bound} refused early)`,
      );

      // The burst: POSTS posts due in one minute, one instance killed -9 in the middle.
      const at = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
      const ids: string[] = [];
      for (let start = 0; start < POSTS; start += 1000) {
        const batch = Array.from({ length: Math.min(1000, POSTS - start) }, (_, i) => ({ id: crypto.randomUUID(), n: start + i }));
        await db.post.createMany({
          data: batch.map(({ id, n }) => ({
            id,
            workspaceId: workspace.id,
            content: `scale ${instances} ${n}`,
            platforms: ['linkedin'],
            connectionIds: [connections[n % 10]!.id],
            status: 'scheduled',
            scheduledAt: at,
          })),
        });
        await db.postTarget.createMany({ data: batch.map(({ id, n }) => ({ postId: id, connectionId: connections[n % 10]!.id, platform: 'linkedin' })) });
        ids.push(...batch.map((b) => b.id));
      }
      for (let i = 0; i < ids.length; i += 100)
        await Promise.all(ids.slice(i, i + 100).map((id) => scheduleDelivery({ id, scheduledAt: at, scheduleVersion: 0 })));
      await sleep(Math.max(0, at.getTime() - Date.now()));
      let killed = '';
      if (instances > 1) {
        await sleep(3000);
        const victim = apps[0]!;
        const mid = await db.post.count({ where: { workspaceId: workspace.id, status: 'publishing' } });
        await victim.kill9();
        live = live.filter((u) => u !== victim.baseUrl);
        killed = `; instance 1 killed -9 at +3 s with ${mid} posts publishing`;
      }
      const deadline = Date.now() + 300_000;
      let open = POSTS;
      while (Date.now() < deadline) {
        open = await db.post.count({ where: { workspaceId: workspace.id, status: { in: ['scheduled', 'publishing'] } } });
        if (open === 0) break;
        await sleep(500);
      }
      const seconds = (Date.now() - at.getTime()) / 1000;
      const [counts] = await db.$queryRaw<{ published: number; failed: number; interrupted: number; reattempted: number }[]>`
        SELECT count(*) FILTER (WHERE t."status" = 'published')::int AS published,
               count(*) FILTER (WHERE t."status" = 'failed')::int AS failed,
               count(*) FILTER (WHERE t."error" LIKE 'Delivery was interrupted%')::int AS interrupted,
               count(*) FILTER (WHERE t."attempts" > 1)::int AS reattempted
        FROM "PostTarget" t JOIN "Post" p ON p."id" = t."postId"
        WHERE p."workspaceId" = ${workspace.id}::uuid AND p."content" LIKE ${`scale ${instances} %`}`;
      const calls = journals.flatMap((j) => (existsSync(j) ? readFileSync(j, 'utf8').trim().split('\n').filter(Boolean) : []));
      const perTarget = new Map<string, number>();
      for (const line of calls) {
        // This count's own journals: every line is a platform call of this burst (content hashed).
        const c = JSON.parse(line) as { connectionId: string; content: string };
        const k = `${c.connectionId} ${c.content}`;
        perTarget.set(k, (perTarget.get(k) ?? 0) + 1);
      }
      const twice = [...perTarget.values()].filter((n) => n > 1).length;
      check(
        label,
        'scheduled posts are delivered, none missed',
        open === 0 && counts!.published + counts!.failed === POSTS && counts!.failed === counts!.interrupted,
        `${POSTS} due at ${at.toISOString().slice(11, 19)}: ${counts!.published} published, ${counts!.interrupted} settled as interrupted, ${open} still open, all settled ${seconds.toFixed(1)} s after their minute${killed}`,
      );
      check(
        label,
        'no target is posted twice',
        twice === 0 && counts!.reattempted === 0,
        `${perTarget.size} targets called, ${twice} called more than once, ${counts!.reattempted} attempted more than once`,
      );

      // Webhooks: one post.published event per published target, each delivered once.
      const events = await db.outboxEvent.count({ where: { workspaceId: workspace.id, type: 'post.published' } });
      const hookDeadline = Date.now() + 120_000;
      let delivered = 0;
      while (Date.now() < hookDeadline) {
        delivered = await db.webhookDelivery.count({ where: { endpoint: { workspaceId: workspace.id }, deliveredAt: { not: null } } });
        if (delivered >= events) break;
        await sleep(500);
      }
      const duplicates = [...receipts.values()].filter((n) => n > 1).length;
      check(
        label,
        'webhook deliveries are sent once each',
        delivered === events && duplicates === 0,
        `${events} post.published events, ${delivered} delivered, ${receipts.size} distinct deliveries received, ${duplicates} received more than once`,
      );
      return rps;
    } finally {
      proxy.close();
    }
  } finally {
    for (const app of apps) await app.stop().catch(() => {});
    await receiver.close();
    await closeJobs();
    await closeAllConnections();
    await dropDatabase(url).catch(() => {});
  }
}

async function main(): Promise<number> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'herald-scale-'));
  chmodSync(workDir, 0o755);
  console.log(`scale: logs and journals in ${workDir}`);
  ensureBuild();
  const { resolveServerUrl, stopEmbeddedIfOwned } = await import('@/server/db/url');
  const serverUrl = await resolveServerUrl();
  const rates: string[] = [];
  try {
    for (const n of COUNTS) rates.push(`${n}: ${(await scenario(n, serverUrl, workDir, path.join(workDir, 'receiver.pem'))).toFixed(0)} req/s`);
  } finally {
    await stopEmbeddedIfOwned();
  }
  console.log(`scale: GET /posts?limit=50 throughput by instances — ${rates.join(', ')}`);
  console.log(summary());
  if (allPassed()) rmSync(workDir, { recursive: true, force: true });
  return allPassed() ? 0 : 1;
}

exitWith(main());
