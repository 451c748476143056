// Schedules POSTS posts (default 10,000) for the same minute and measures how long the local
// runner takes to deliver them all, from their scheduled time to the last one published.
// Target: under 60 s on this machine.
//   npx tsx bench/scheduled-burst.ts   (POSTS=10000 LATENCY_MS=200 CONCURRENCY=64)
import { benchWorkspace, withBenchDatabase } from './bench-database';
import { runnableJobs } from '@/server/runtime/job-handlers';

const POSTS = Number(process.env.POSTS ?? 10_000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
process.env.SANDBOX_LATENCY_MS = String(LATENCY_MS);
process.env.DATABASE_POOL_SIZE ??= '24';

await withBenchDatabase(async (url) => {
  const { db } = await import('@/server/db/client');
  const { scheduleDelivery } = await import('@/server/posts/delivery/schedule');
  const { startLocalRunner } = await import('@/server/jobs');
  const { workspace, connections } = await benchWorkspace([{ platform: 'linkedin', count: 10 }]);

  // Scheduling happens through the same job port the API uses; rows are inserted in bulk
  // so the set-up does not dominate the run.
  const at = new Date(Math.ceil((Date.now() + 45_000) / 60_000) * 60_000);
  let t = performance.now();
  const ids: string[] = [];
  for (let start = 0; start < POSTS; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, POSTS - start) }, (_, i) => ({ id: crypto.randomUUID(), n: start + i }));
    await db.post.createMany({
      data: batch.map(({ id, n }) => {
        const c = connections[n % connections.length]!;
        return { id, workspaceId: workspace.id, content: `burst ${n}`, platforms: ['linkedin'], connectionIds: [c.id], status: 'scheduled', scheduledAt: at };
      }),
    });
    await db.postTarget.createMany({
      data: batch.map(({ id, n }) => ({ postId: id, connectionId: connections[n % connections.length]!.id, platform: 'linkedin' })),
    });
    ids.push(...batch.map((b) => b.id));
  }
  for (let i = 0; i < ids.length; i += 100) {
    await Promise.all(ids.slice(i, i + 100).map((id) => scheduleDelivery({ id, scheduledAt: at, scheduleVersion: 0 })));
  }
  console.log(`scheduled ${POSTS} posts for ${at.toISOString()} in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const runner = await startLocalRunner({ connectionString: url, definitions: runnableJobs, concurrency: CONCURRENCY, pollIntervalMs: 500 });
  await new Promise((r) => setTimeout(r, Math.max(0, at.getTime() - Date.now())));
  t = performance.now();
  let remaining = POSTS;
  while (remaining > 0) {
    await new Promise((r) => setTimeout(r, 500));
    remaining = await db.post.count({ where: { workspaceId: workspace.id, status: { not: 'published' } } });
  }
  const seconds = (performance.now() - t) / 1000;
  await runner.stop();
  const failed = await db.postTarget.count({ where: { status: { not: 'published' } } });
  console.log(`platform latency ${LATENCY_MS} ms per post; runner concurrency ${CONCURRENCY}`);
  console.log(
    `delivered ${POSTS} posts in ${seconds.toFixed(1)} s after their scheduled minute (${(POSTS / seconds).toFixed(0)} posts/s); targets not published: ${failed}`,
  );
  console.log(`target < 60 s: ${seconds < 60 ? 'OK' : 'OVER TARGET'}`);
});
process.exit(0);
