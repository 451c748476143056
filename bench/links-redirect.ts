// The short-link redirect under a steady load: RATE requests a second (open loop: each sent at
// its time, whether or not the ones before have answered) for SECONDS against GET /l/{code} on
// Herald's node:http fast path (server/runtime/fast-path.ts, the route table's handler),
// served by a child process of its own; prints p50/p95/p99 and the rate achieved, then checks
// that every click from a browser was counted and none from a bot. Target: p95 under 5 ms at 500/s.
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/links-redirect.ts
//   (RATE=500 SECONDS=15 LINKS=200 BOT_SHARE=0.1 by default)
import { spawn } from 'node:child_process';
import http, { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchWorkspace, bounded, withBenchDatabase } from './bench-database';

const RATE = Number(process.env.RATE ?? 500);
const SECONDS = Number(process.env.SECONDS ?? 15);
const LINKS = Number(process.env.LINKS ?? 200);
const BOT_SHARE = Number(process.env.BOT_SHARE ?? 0.1);
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const BOT = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';

if (process.argv.includes('--serve')) {
  // The server: Herald's fast path on a plain node:http listener (what `npm start` runs before Next).
  const { fastPath } = await import('@/server/runtime/fast-path');
  const where = { port: 0, hostname: '127.0.0.1' };
  const server = createServer((req, res) => {
    if (fastPath.handle(req, res, where)) return;
    res.statusCode = 404;
    res.end();
  });
  server.listen(0, '127.0.0.1', () => {
    where.port = (server.address() as AddressInfo).port;
    console.log(`listening ${where.port}`);
  });
  process.on('SIGTERM', () => {
    void (async () => {
      const { flushClicks } = await import('@/server/links/follow-link');
      await flushClicks();
      server.close(() => process.exit(0));
    })();
  });
} else {
  await withBenchDatabase(async (url) => {
    const { db } = await import('@/server/db/client');
    const { createPost } = await import('@/server/posts/create-post');
    const { workspace, connections } = await benchWorkspace([{ platform: 'linkedin', count: 1 }]);
    await db.workspace.update({ where: { id: workspace.id }, data: { trackLinks: true } });
    // LINKS short links: posts of ten links each.
    for (let p = 0; p < LINKS / 10; p++) {
      const links = Array.from({ length: 10 }, (_, i) => `https://acme-coffee.example/p${p}/l${i}`).join(' ');
      await createPost(workspace.id, { content: `Post ${p}: ${links}`, connectionIds: [connections[0]!.id] });
    }
    const codes = (await db.trackedLink.findMany({ select: { code: true } })).map((l) => l.code);

    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/links-redirect.ts', '--serve'], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await bounded(
      new Promise<number>((resolve) =>
        child.stdout.on('data', (b: Buffer) => /listening (\d+)/.test(String(b)) && resolve(Number(/listening (\d+)/.exec(String(b))![1]))),
      ),
      60_000,
      'the redirect server',
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const get = (code: string, ua: string) =>
      new Promise<number>((resolve, reject) => {
        const t = performance.now();
        const req = http.request({ host: '127.0.0.1', port, path: `/l/${code}`, agent, headers: { 'user-agent': ua } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 302 ? resolve(performance.now() - t) : reject(new Error(`answered ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end();
      });

    // Warm-up (sockets, the code cache, JIT): 2 s at the same rate, not measured.
    const run = async (seconds: number) => {
      const latencies: number[] = [];
      let errors = 0;
      let browsers = 0;
      const inFlight: Promise<void>[] = [];
      const total = Math.round(RATE * seconds);
      const start = performance.now();
      for (let i = 0; i < total; i++) {
        const due = start + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        const bot = Math.random() < BOT_SHARE;
        if (!bot) browsers++;
        inFlight.push(
          get(codes[i % codes.length]!, bot ? BOT : BROWSER).then(
            (ms) => void latencies.push(ms),
            () => void errors++,
          ),
        );
      }
      await Promise.all(inFlight);
      const elapsed = (performance.now() - start) / 1000;
      return { latencies, errors, browsers, sent: total, elapsed };
    };
    await run(2);
    // Counted clicks are written within a second; wait for the warm-up's before measuring.
    await new Promise((r) => setTimeout(r, 1500));
    const counted0 = Number((await db.$queryRaw<{ n: bigint }[]>`SELECT COALESCE(sum(clicks), 0)::bigint AS n FROM "LinkClickDay"`)[0]!.n);
    const r = await run(SECONDS);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const counted = Number((await db.$queryRaw<{ n: bigint }[]>`SELECT COALESCE(sum(clicks), 0)::bigint AS n FROM "LinkClickDay"`)[0]!.n) - counted0;
    agent.destroy();

    const sorted = [...r.latencies].sort((a, b) => a - b);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
    console.log(`GET /l/{code} on Herald's fast path, ${codes.length} links, ${Math.round(BOT_SHARE * 100)}% bot user agents, open loop`);
    console.log(
      `target rate ${RATE}/s for ${SECONDS} s: ${r.sent} sent, ${r.latencies.length} answered 302, ${r.errors} errors, achieved ${(r.latencies.length / r.elapsed).toFixed(0)}/s`,
    );
    console.log(`latency ms: p50 ${pct(50).toFixed(2)}  p95 ${pct(95).toFixed(2)}  p99 ${pct(99).toFixed(2)}  max ${sorted[sorted.length - 1]!.toFixed(2)}`);
    console.log(`clicks counted ${counted} of ${r.browsers} browser requests (bots not counted): ${counted === r.browsers ? 'OK' : 'MISMATCH'}`);
    console.log(`p95 target < 5 ms: ${pct(95) < 5 ? 'OK' : 'OVER TARGET'}`);
  });
  process.exit(0);
}
