// Publishes one post to 20 sandbox accounts with a fixed platform latency and prints the
// wall time against the slowest single account. Target: ≤ 1.2× the slowest account.
//   npx tsx bench/publish-fanout.ts            (LATENCY_MS=200 ROUNDS=5 by default)
import { benchWorkspace, withBenchDatabase } from './bench-database';

const LATENCY_MS = Number(process.env.LATENCY_MS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
process.env.SANDBOX_LATENCY_MS = String(LATENCY_MS);

await withBenchDatabase(async () => {
  const { createPost } = await import('@/server/posts/create-post');
  const { deliverPost } = await import('@/server/posts/delivery/deliver-post');
  const { db } = await import('@/server/db/client');
  const { workspace, connections } = await benchWorkspace([{ platform: 'facebook', count: 20 }]);
  const ids = connections.map((c) => c.id);

  // Warm-up (connection pool, module loading) is not measured.
  const warm = await createPost(workspace.id, { content: 'warm-up', connectionIds: ids });
  await deliverPost({ workspaceId: workspace.id, postId: warm.post.id });

  const single: number[] = [];
  const fanout: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const one = await createPost(workspace.id, { content: `one ${r}`, connectionIds: [ids[0]!] });
    let t = performance.now();
    await deliverPost({ workspaceId: workspace.id, postId: one.post.id });
    single.push(performance.now() - t);

    const many = await createPost(workspace.id, { content: `twenty ${r}`, connectionIds: ids });
    t = performance.now();
    await deliverPost({ workspaceId: workspace.id, postId: many.post.id });
    fanout.push(performance.now() - t);
    const { status } = await db.post.findUniqueOrThrow({ where: { id: many.post.id } });
    if (status !== 'published') throw new Error(`round ${r}: post ended ${status}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = median(fanout) / median(single);
  console.log(`platform latency per account: ${LATENCY_MS} ms; rounds: ${ROUNDS}`);
  console.log(`1 account  : median ${median(single).toFixed(0)} ms (all: ${single.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`20 accounts: median ${median(fanout).toFixed(0)} ms (all: ${fanout.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`ratio 20 accounts / slowest single account: ${ratio.toFixed(2)} (target ≤ 1.20) ${ratio <= 1.2 ? 'OK' : 'OVER TARGET'}`);
});
process.exit(0);
