import pg from 'pg';
import { withBenchDatabase } from './bench-database';
const N = Number(process.env.N ?? 2000);
await withBenchDatabase(async () => {
  const { db } = await import('@/server/db/client');
  const { collectConnectionComments } = await import('@/server/inbox/collect-comments');
  const ws = await db.workspace.create({ data: { name: 'x', slug: `x-${Date.now()}` } });
  const c = await db.connection.create({ data: { workspaceId: ws.id, platform: 'instagram', provider: 'live', externalId: 'x', accountName: 'x', displayName: 'x' } });
  const now = new Date();
  const posts = Array.from({ length: 40 }, (_, k) => ({ id: crypto.randomUUID(), postedId: `p${k}`, publishedAt: new Date(now.getTime() - 3600_000 - k * 3600_000) }));
  await db.post.createMany({ data: posts.map((p) => ({ id: p.id, workspaceId: ws.id, content: 'x', mediaUrls: [], platforms: ['instagram'], connectionIds: [c.id], status: 'published', scheduledAt: p.publishedAt, publishedAt: p.publishedAt })) });
  await db.postTarget.createMany({ data: posts.map((p) => ({ postId: p.id, connectionId: c.id, platform: 'instagram', status: 'published', postedId: p.postedId, attempts: 1, publishedAt: p.publishedAt })) });
  const per = N / 40;
  const client = { source: 'instagram', readComments: async (_c: unknown, post: { postedId: string }) => ({ ok: true as const, complete: true, comments: Array.from({ length: per }, (_, i) => ({ id: `${post.postedId}_${i}`, parentId: null, authorId: 'a', authorName: 'A person', authorHandle: '@a', text: 'Do you ship to Canada? Would love one', createdAt: new Date(now.getTime() - i * 1000), permalink: 'https://x/y', fromAccount: false })) }) };
  const original = pg.Client.prototype.query;
  const t0 = performance.now();
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : ((config as { text?: string }).text ?? '');
    const vals = typeof config === 'string' ? rest[0] : (config as { values?: unknown[] }).values;
    const s = performance.now();
    const r = (original as (...a: unknown[]) => unknown).call(this, config, ...rest) as Promise<unknown>;
    if (r && typeof (r as Promise<unknown>).then === 'function') void r.then(() => console.log(`${(s - t0).toFixed(0).padStart(6)} +${(performance.now() - s).toFixed(0).padStart(5)} ms  ${Array.isArray(vals) ? vals.length : 0} params  ${text.replace(/\s+/g, ' ').slice(0, 70)}`), () => {});
    return r;
  } as typeof original;
  const c2 = await db.connection.create({ data: { workspaceId: ws.id, platform: 'instagram', provider: 'live', externalId: 'x2', accountName: 'x', displayName: 'x' } });
  await db.postTarget.createMany({ data: posts.map((p) => ({ postId: p.id, connectionId: c2.id, platform: 'instagram', status: 'published', postedId: p.postedId + 'b', attempts: 1, publishedAt: p.publishedAt })) });
  for (const id of [c.id, c2.id]) {
    const t1 = performance.now();
    const res = await collectConnectionComments(id, { client, now });
    console.log(res.inserted, (performance.now() - t1).toFixed(0), 'ms total');
  }
  pg.Client.prototype.query = original;
});
process.exit(0);
