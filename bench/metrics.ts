// GET /metrics/daily and /metrics/summary over HTTP (the REST facade, key check, rate limit,
// SQL aggregation) against 2 years of daily readings for ACCOUNTS accounts (default 20), plus
// the same again in another workspace. Prints p50/p95/p99 over RUNS requests per case
// (target: p95 under 20 ms). The baseline row is a route without a query of its own: what
// the key check and rate limit cost every request.
//   npx tsx bench/metrics.ts   (ACCOUNTS=20 DAYS=730 RUNS=300)
import { withBenchDatabase } from './bench-database';

const ACCOUNTS = Number(process.env.ACCOUNTS ?? 20);
const DAYS = Number(process.env.DAYS ?? 730);
const RUNS = Number(process.env.RUNS ?? 300);
process.env.RATE_LIMIT_PER_MINUTE = '100000000';

await withBenchDatabase(async () => {
  const { db } = await import('@/server/db/client');
  const { createApiKey } = await import('@/server/api-keys/mint-api-key');
  const { SCOPES } = await import('@/server/auth/scopes');
  const { startTestServer } = await import('@/server/testing/api-server');
  const { handlePublicApi } = await import('@/server/http/rest-handler');
  const { addDays } = await import('@/server/shared/analytics-window');

  const to = new Date().toISOString().slice(0, 10);
  const accounts: string[] = [];
  let key = '';
  let t = performance.now();
  for (const [w, name] of ['Bench', 'Other'].entries()) {
    const ws = await db.workspace.create({ data: { name, slug: `bench-metrics-${w}-${Date.now()}` } });
    if (w === 0) key = (await createApiKey({ workspaceId: ws.id, name: 'bench', scopes: SCOPES })).secret;
    for (let a = 0; a < ACCOUNTS; a++) {
      const acc = await db.adAccount.create({
        data: { workspaceId: ws.id, source: 'sandbox', externalId: `sbx-${w}-${a}`, name: `Account ${a}`, currency: 'USD' },
      });
      if (w === 0) accounts.push(acc.id);
      // About one day in nine without a reading, as the sandbox does.
      await db.$executeRawUnsafe(`
        INSERT INTO "AdMetricDaily" ("accountId", "day", "workspaceId", "impressions", "reach", "clicks", "spend", "conversions", "currency", "source", "collectedAt")
        SELECT '${acc.id}'::uuid, '${to}'::date - g, '${ws.id}'::uuid, 4000 + (g * 37) % 6000, 3000 + (g * 17) % 2000, 40 + (g * 13) % 120,
               ((4000 + (g * 37) % 6000) * 0.006)::numeric(18,6), CASE WHEN g % 7 = 0 THEN NULL ELSE (g % 9) END, 'USD', 'sandbox', now()
          FROM generate_series(0, ${DAYS - 1}) g WHERE g % 9 <> 4`);
    }
  }
  await db.$executeRawUnsafe('VACUUM ANALYZE "AdMetricDaily"');
  const rows = await db.adMetricDaily.count();
  console.log(
    `inserted ${rows} daily rows (${ACCOUNTS} accounts × ${DAYS} days × 2 workspaces, ~1/9 days without reading) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const server = await startTestServer({ '/public/v1': handlePublicApi });
  const pick = (i: number) => accounts[i % accounts.length]!;
  const cases: [string, (i: number) => string][] = [
    ['baseline: GET /sources', () => '/sources'],
    ['summary 30 days', (i) => `/metrics/summary?from=${addDays(to, -29 - (i % 300))}&to=${addDays(to, -(i % 300))}&accountId=${pick(i)}`],
    ['summary 366 days', (i) => `/metrics/summary?from=${addDays(to, -365 - (i % 300))}&to=${addDays(to, -(i % 300))}&accountId=${pick(i)}`],
    ['daily 30 days, limit 30', (i) => `/metrics/daily?from=${addDays(to, -29 - (i % 300))}&to=${addDays(to, -(i % 300))}&accountId=${pick(i)}&limit=30`],
    ['daily 366 days, limit 100', (i) => `/metrics/daily?from=${addDays(to, -365 - (i % 300))}&to=${addDays(to, -(i % 300))}&accountId=${pick(i)}&limit=100`],
  ];
  for (const [name, path] of cases) {
    const get = async (i: number) => {
      const res = await fetch(`${server.url}/public/v1${path(i)}`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 20; i++) await get(i); // warm
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      t = performance.now();
      await get(i);
      samples.push(performance.now() - t);
    }
    samples.sort((a, b) => a - b);
    const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * p))]!.toFixed(1);
    console.log(`${name.padEnd(26)} p50 ${q(0.5)} ms  p95 ${q(0.95)} ms  p99 ${q(0.99)} ms  (${RUNS} sequential requests over HTTP)`);
  }
  await server.close();
});
process.exit(0);
