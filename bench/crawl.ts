// Crawl throughput against local websites: HOSTS hosts × PAGES pages each, every answer
// delayed LATENCY_MS (default 50 ms), the crawler's per-host delay POLITENESS_MS, HOST_CONCURRENCY
// hosts at once. Prints pages per second, the per-host lower bound, and the smallest gap seen
// by the site between two requests to one host (it must not be below the politeness delay).
//   npx tsx bench/crawl.ts   (HOSTS=40 PAGES=10 LATENCY_MS=50 POLITENESS_MS=250 HOST_CONCURRENCY=40)
import { withBenchDatabase } from './bench-database';
import { landingPage, startTestSite } from '@/server/crawl/testing/test-site';

const HOSTS = Number(process.env.HOSTS ?? 40);
const PAGES = Number(process.env.PAGES ?? 10);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);
const POLITENESS_MS = Number(process.env.POLITENESS_MS ?? 250);
const HOST_CONCURRENCY = Number(process.env.HOST_CONCURRENCY ?? 40);

await withBenchDatabase(async () => {
  const { db } = await import('@/server/db/client');
  const { runCrawl } = await import('@/server/crawl/crawl-run');
  const site = await startTestSite({ latencyMs: LATENCY_MS });
  const client = site.client();
  const ws = await db.workspace.create({ data: { name: 'Bench', slug: `bench-crawl-${Date.now()}` } });
  for (let h = 0; h < HOSTS; h++) {
    const host = `h${h}.site.test`;
    const s = await db.crawlSite.create({ data: { workspaceId: ws.id, name: host, origin: site.origin(host) } });
    for (let p = 0; p < PAGES; p++) {
      site.set(
        host,
        `/p${p}`,
        landingPage({ title: `Page ${p}`, description: 'd', h1: `Page ${p} of ${host}`, paragraphs: [`Text of page ${p} on ${host}. `.repeat(40)] }),
      );
      await db.crawlPage.create({ data: { workspaceId: ws.id, siteId: s.id, url: `${site.origin(host)}/p${p}` } });
    }
  }
  const fetch = (url: string, init?: Parameters<typeof client.fetch>[1]) => client.fetch(url, init);

  for (const run of ['first run (extraction)', 'second run (+ change detection)']) {
    site.requests.length = 0;
    const t = performance.now();
    const summary = await runCrawl({ workspaceId: ws.id, fetch, politenessMs: POLITENESS_MS, hostConcurrency: HOST_CONCURRENCY });
    const seconds = (performance.now() - t) / 1000;
    let minGap = Infinity;
    const byHost = new Map<string, number[]>();
    for (const r of site.requests) byHost.set(r.host, [...(byHost.get(r.host) ?? []), r.arrivedAt]);
    for (const times of byHost.values()) for (let i = 1; i < times.length; i++) minGap = Math.min(minGap, times[i]! - times[i - 1]!);
    // robots.txt and PAGES pages, one at a time, with the delay between the end of one and the next.
    const floor = (PAGES * POLITENESS_MS + (PAGES + 1) * LATENCY_MS) / 1000;
    console.log(
      `${run.padEnd(32)} ${summary.visits} visits on ${summary.hosts} hosts in ${seconds.toFixed(2)} s = ${(summary.visits / seconds).toFixed(1)} pages/s ` +
        `(per-host floor ${floor.toFixed(2)} s; smallest gap between two requests to one host ${minGap.toFixed(0)} ms, delay ${POLITENESS_MS} ms)`,
    );
  }
  const ok = await db.crawlVisit.count({ where: { workspaceId: ws.id, outcome: 'ok' } });
  console.log(`visits recorded: ${await db.crawlVisit.count({ where: { workspaceId: ws.id } })} (${ok} ok)`);
  await site.close();
});
process.exit(0);
