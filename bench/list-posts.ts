// GET /posts at scale: one workspace with POSTS posts (default 1,000,000), inserted in bulk
// with SQL, then the list query the API runs, timed per filter combination.
//   npx tsx bench/list-posts.ts   (POSTS=1000000 RUNS=20)
import { benchWorkspace, withBenchDatabase } from './bench-database';

const POSTS = Number(process.env.POSTS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 20);

await withBenchDatabase(async () => {
  const { db } = await import('@/server/db/client');
  const { listPosts } = await import('@/server/posts/read-posts');
  const { workspace } = await benchWorkspace([]);
  const other = await benchWorkspace([]);
  let t = performance.now();
  const platforms = ['instagram', 'facebook', 'linkedin', 'twitter', 'threads', 'tiktok'];
  const statuses = ['draft', 'scheduled', 'published', 'partial_published', 'failed', 'cancelled'];
  for (const ws of [workspace.id, other.workspace.id]) {
    await db.$executeRawUnsafe(`
      INSERT INTO "Post" ("id", "workspaceId", "content", "mediaUrls", "platforms", "connectionIds", "status", "scheduledAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), '${ws}'::uuid, 'post ' || g, '{}', ARRAY[(ARRAY['${platforms.join("','")}'])[1 + g % 6]], '{}',
             (ARRAY['${statuses.join("','")}'])[1 + (g / 7) % 6],
             CASE WHEN g % 6 = 0 THEN NULL ELSE now() - (g || ' minutes')::interval END,
             now() - (g || ' seconds')::interval, now()
      FROM generate_series(1, ${ws === workspace.id ? POSTS : Math.floor(POSTS / 10)}) g`);
  }
  // Steady state, as autovacuum leaves the table.
  await db.$executeRawUnsafe('VACUUM ANALYZE "Post"');
  console.log(`inserted ${POSTS} posts (+${Math.floor(POSTS / 10)} in another workspace) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const day = 24 * 3_600_000;
  const cases: [string, Parameters<typeof listPosts>[1]][] = [
    ['newest page', { page: 1, limit: 50 }],
    ['page 100', { page: 100, limit: 50 }],
    ['status=published', { page: 1, limit: 50, status: 'published' }],
    ['platform=twitter', { page: 1, limit: 50, platform: 'twitter' }],
    ['from/to one day', { page: 1, limit: 50, from: new Date(Date.now() - 2 * day).toISOString(), to: new Date(Date.now() - day).toISOString() }],
    ['status+platform', { page: 1, limit: 200, status: 'scheduled', platform: 'linkedin' }],
  ];
  for (const [name, query] of cases) {
    await listPosts(workspace.id, query); // warm
    const samples: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i++) {
      t = performance.now();
      total = (await listPosts(workspace.id, query)).total;
      samples.push(performance.now() - t);
    }
    samples.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(18)} total ${String(total).padStart(8)}  p50 ${samples[Math.floor(RUNS / 2)]!.toFixed(1)} ms  p95 ${samples[Math.floor(RUNS * 0.95)]!.toFixed(1)} ms`,
    );
  }
});
process.exit(0);
