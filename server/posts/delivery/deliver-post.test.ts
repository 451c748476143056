import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { deliverPost } from '@/server/posts/delivery/deliver-post';
import { usePublicApi } from '@/server/testing/public-api';
import { eventsOf, inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { createSandboxConnection } from '@/server/testing/fixtures';

const api = usePublicApi();
beforeAll(() => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('POST /posts/{id}/publish', () => {
  it('publishes to every target and reports each outcome (partial_published)', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'Go', connectionIds: [w.ok.linkedin.id, w.ok.twitter.id, w.rejects.id] } });
    const res = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    expect(res.status).toBe(201);
    expect(res.body.warnings).toEqual([]);
    const post = res.body.data;
    expect(post.status).toBe('partial_published');
    expect(post.publishedAt).not.toBeNull();
    const [li, tw, rej] = post.targets;
    expect(li).toMatchObject({ status: 'published', attempts: 1, error: null, permalink: expect.stringContaining('/demo-post/linkedin/') });
    expect(tw).toMatchObject({ status: 'published', postedId: expect.stringMatching(/^\d+$/), permalink: expect.stringContaining('/demo-post/twitter/') });
    expect(rej).toMatchObject({ status: 'failed', attempts: 1, postedId: null, permalink: null, error: expect.stringContaining('DUPLICATE_POST') });
    expect(post.platformPostIds).toEqual({ [w.ok.linkedin.id]: li.postedId, [w.ok.twitter.id]: tw.postedId });
    expect(post.error).toContain('linkedin: Content is a duplicate');

    const events = await eventsOf(post.id);
    expect(events.filter((e) => e.type === 'post.published')).toHaveLength(2);
    const failed = events.find((e) => e.type === 'post.failed')!;
    expect(failed.data).toMatchObject({ postId: post.id, targetId: rej.id, platform: 'linkedin', error: { code: 'PLATFORM_ERROR', message: rej.error } });
    expect((await db.connection.findUniqueOrThrow({ where: { id: w.ok.linkedin.id } })).lastSuccessfulPostAt).not.toBeNull();
    expect((await db.connection.findUniqueOrThrow({ where: { id: w.rejects.id } })).lastError).toBe(rej.error);
  });

  it('ends published when every target lands, failed when none does', async () => {
    const w = await publishingWorkspace();
    const all = await api('POST', '/posts', { key: w.secret, body: { content: 'ok', connectionIds: [w.ok.facebook.id, w.ok.threads.id] } });
    expect((await api('POST', `/posts/${all.body.data.id}/publish`, { key: w.secret })).body.data.status).toBe('published');
    const none = await api('POST', '/posts', { key: w.secret, body: { content: 'no', connectionIds: [w.rejects.id] } });
    const res = await api('POST', `/posts/${none.body.data.id}/publish`, { key: w.secret });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'failed', publishedAt: null, platformPostIds: null });
  });

  it('marks a connection whose token the platform refuses, so later posts get CONNECTION_EXPIRED', async () => {
    const w = await publishingWorkspace();
    // The token looked valid when the post was created and lapsed before delivery.
    const lapsing = await createSandboxConnection(w.workspace.id, { platform: 'twitter' });
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [lapsing.id] } });
    await db.connection.update({ where: { id: lapsing.id }, data: { sandboxBehavior: 'expired' } });
    const res = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    expect(res.body.data.targets[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('Session has expired') });
    const conn = await db.connection.findUniqueOrThrow({ where: { id: lapsing.id } });
    expect(conn.status).toBe('inactive');
    const events = await db.outboxEvent.findMany({ where: { type: 'connection.error' } });
    expect(events.map((e) => e.data)).toContainEqual({ connectionId: lapsing.id, platform: 'twitter', reason: expect.stringContaining('Session has expired') });
    const later = await api('POST', '/posts', { key: w.secret, body: { content: 'y', connectionIds: [lapsing.id] } });
    expect(later.body.error.code).toBe('CONNECTION_EXPIRED');
  });

  it('refuses a post pending approval with APPROVAL_REQUIRED and changes nothing', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(10) } });
    const res = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('APPROVAL_REQUIRED');
    const after = await api('GET', `/posts/${created.body.data.id}`, { key: w.secret });
    expect(after.body.data).toMatchObject({ status: 'scheduled', approvalStatus: 'pending' });
    expect(after.body.data.targets[0].attempts).toBe(0);
  });

  it('refuses to publish a published or cancelled post', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id] } });
    await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    const again = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('POST_NOT_EDITABLE');
  });

  it('attempts targets concurrently: 20 accounts take about as long as one', async () => {
    const w = await publishingWorkspace();
    const conns = await Promise.all(Array.from({ length: 20 }, () => createSandboxConnection(w.workspace.id, { platform: 'facebook' })));
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'fan out', connectionIds: conns.map((c) => c.id) } });
    // Record the overlap of platform calls instead of timing them.
    const starts = await db.postTarget.findMany({ where: { postId: created.body.data.id } });
    expect(starts).toHaveLength(20);
    vi.stubEnv('SANDBOX_LATENCY_MS', '300');
    let res;
    try {
      res = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    } finally {
      vi.stubEnv('SANDBOX_LATENCY_MS', '5');
    }
    expect(res.body.data.status).toBe('published');
    const targets = await db.postTarget.findMany({ where: { postId: created.body.data.id } });
    const firstDone = Math.min(...targets.map((t) => t.publishedAt!.getTime()));
    // Every attempt started before the first one finished: they ran side by side.
    for (const t of targets) expect(t.attemptStartedAt!.getTime()).toBeLessThanOrEqual(firstDone);
  });

  it('never posts a target twice: a resumed delivery skips landed targets and fails interrupted ones it cannot settle', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'crash', connectionIds: [w.ok.linkedin.id, w.ok.twitter.id, w.ok.facebook.id] },
    });
    const id = created.body.data.id;
    const [landed, interrupted, untouched] = (await db.postTarget.findMany({ where: { postId: id } })).sort(
      (a, b) => created.body.data.connectionIds.indexOf(a.connectionId) - created.body.data.connectionIds.indexOf(b.connectionId),
    );
    // The state a crash leaves: one target confirmed, one mid-call long ago, one never tried.
    await db.post.update({ where: { id }, data: { status: 'publishing' } });
    await db.postTarget.update({ where: { id: landed!.id }, data: { status: 'published', postedId: '111', attempts: 1, publishedAt: new Date() } });
    await db.postTarget.update({
      where: { id: interrupted!.id },
      data: { status: 'publishing', attempts: 1, attemptStartedAt: new Date(Date.now() - 10 * 60_000) },
    });

    expect(await deliverPost({ workspaceId: null, postId: id, mode: 'scheduled' })).toBe(true);
    const post = await db.post.findUniqueOrThrow({ where: { id }, include: { targets: true } });
    const byId = new Map(post.targets.map((t) => [t.id, t]));
    expect(byId.get(landed!.id)).toMatchObject({ status: 'published', postedId: '111', attempts: 1 });
    expect(byId.get(interrupted!.id)).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringContaining('could not confirm what happened') });
    expect(byId.get(untouched!.id)).toMatchObject({ status: 'published', attempts: 1 });
    expect(post.status).toBe('partial_published');
  });
});
