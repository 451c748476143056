// Settling interrupted attempts by asking the (demo) networks, on PostgreSQL: the state a
// crash leaves (a post publishing under a dead owner, targets mid-call with their recorded
// intent), then the delivery that takes it over. The demo networks answer the way their real
// networks do (docs/reliability.md): Facebook and X can be asked, Bluesky is idempotent, Slack
// cannot be asked.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { deliverPost } from '@/server/posts/delivery/deliver-post';
import { sandboxReceipts } from '@/server/posts/delivery/sandbox-receipts';
import { UNCONFIRMED_CODE } from '@/server/posts/delivery/settle';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { eventsOf } from '@/server/testing/posts-fixtures';

beforeEach(() => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A post whose owner died five minutes into calling every network: each target mid-call, its intent recorded. */
async function crashed(platforms: string[]) {
  const w = await createWorkspaceWithKey();
  const connections: Awaited<ReturnType<typeof createSandboxConnection>>[] = [];
  for (const platform of platforms) connections.push(await createSandboxConnection(w.workspace.id, { platform }));
  const startedAt = new Date(Date.now() - 5 * 60_000);
  const post = await db.post.create({
    data: {
      workspaceId: w.workspace.id,
      content: 'Winter blend is back',
      mediaUrls: [],
      platforms,
      connectionIds: connections.map((c) => c.id),
      status: 'publishing',
      deliveryOwner: 'dead-host/1/00000000',
      deliveryLeaseUntil: new Date(Date.now() - 60_000),
      targets: {
        create: connections.map((c) => ({
          connectionId: c.id,
          platform: c.platform,
          status: 'publishing',
          attempts: 1,
          attemptStartedAt: startedAt,
          attemptIntent: { content: 'Winter blend is back', mediaUrls: [], settings: {} },
        })),
      },
    },
    include: { targets: true },
  });
  const target = (platform: string) => post.targets.find((t) => t.platform === platform)!;
  return { post, target, connection: (platform: string) => connections.find((c) => c.platform === platform)! };
}

describe('settling interrupted attempts', () => {
  it('found on the network: published with its post, confirmed, no second call; absent: sent once more with the same key; cannot be asked: left to a person', async () => {
    const c = await crashed(['facebook', 'twitter', 'slack', 'bluesky']);
    // The demo Facebook and Bluesky networks got their posts before Herald died; X did not.
    await sandboxReceipts.receive({
      connectionId: c.connection('facebook').id,
      idempotencyKey: c.target('facebook').id,
      postedId: '120000000001',
      permalink: 'https://herald.example/demo-post/facebook/120000000001',
    });
    await sandboxReceipts.receive({
      connectionId: c.connection('bluesky').id,
      idempotencyKey: c.target('bluesky').id,
      postedId: 'at://did:plc:demo/app.bsky.feed.post/3abc',
      permalink: null,
    });

    expect(await deliverPost({ workspaceId: null, postId: c.post.id, mode: 'scheduled' })).toBe(true);
    const targets = new Map((await db.postTarget.findMany({ where: { postId: c.post.id } })).map((t) => [t.platform, t]));

    expect(targets.get('facebook')).toMatchObject({
      status: 'published',
      postedId: '120000000001',
      attempts: 1,
      confirmedAt: expect.any(Date),
      settlement: expect.stringContaining('made by the interrupted attempt'),
    });
    expect(targets.get('bluesky')).toMatchObject({
      status: 'published',
      postedId: 'at://did:plc:demo/app.bsky.feed.post/3abc',
      attempts: 1,
      confirmedAt: expect.any(Date),
    });
    // X had nothing: delivered once more, with the same key; the demo network now has one post from it.
    expect(targets.get('twitter')).toMatchObject({
      status: 'published',
      attempts: 2,
      confirmedAt: null,
      settlement: expect.stringContaining('no post from this attempt'),
    });
    expect(await sandboxReceipts.find(c.connection('twitter').id, c.target('twitter').id)).toMatchObject({ postedId: targets.get('twitter')!.postedId });
    // Slack cannot be asked: failed for a person, with why.
    expect(targets.get('slack')).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringContaining('Slack cannot be asked') });

    // Exactly one outcome event per target; the confirmed ones say so.
    const events = await eventsOf(c.post.id);
    const outcomes = events.filter((e) => e.type === 'post.published' || e.type === 'post.failed');
    expect(outcomes.map((e) => e.data.targetId as string).sort()).toEqual([...c.post.targets.map((t) => t.id)].sort());
    const fb = outcomes.find((e) => e.data.targetId === c.target('facebook').id)!;
    expect(fb).toMatchObject({ type: 'post.published', data: { postedId: '120000000001', confirmedAt: expect.any(String) } });
    const x = outcomes.find((e) => e.data.targetId === c.target('twitter').id)!;
    expect(x.data).toMatchObject({ confirmedAt: null });
    const slack = outcomes.find((e) => e.data.targetId === c.target('slack').id)!;
    expect(slack).toMatchObject({ type: 'post.failed', data: { error: { code: UNCONFIRMED_CODE } } });
    expect((await db.post.findUniqueOrThrow({ where: { id: c.post.id } })).status).toBe('partial_published');
  });

  it('a demo network that is not idempotent makes a second post when sent the same key again, as the real one would', async () => {
    const c = await crashed(['twitter']);
    const first = await sandboxReceipts.receive({
      connectionId: c.connection('twitter').id,
      idempotencyKey: c.target('twitter').id,
      postedId: '1',
      permalink: null,
    });
    // Settled as found: no second post.
    await deliverPost({ workspaceId: null, postId: c.post.id, mode: 'scheduled' });
    expect(await db.postTarget.findUniqueOrThrow({ where: { id: c.target('twitter').id } })).toMatchObject({
      status: 'published',
      postedId: first.postedId,
      attempts: 1,
    });
    expect(await db.sandboxReceipt.count({ where: { connectionId: c.connection('twitter').id } })).toBe(1);
  });
});
