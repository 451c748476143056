// Approval (staff procedures) and scheduled delivery on the real local job runner.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeJobs, startLocalRunner, type LocalRunner } from '@/server/jobs';
import { db } from '@/server/db/client';
import { createCaller } from '@/server/root';
import { createRequestContext } from '@/server/trpc/context';
import { catchUpScheduledPosts } from '@/server/posts/delivery/scheduled-delivery';
import { usePublicApi } from '@/server/testing/public-api';
import { eventsOf, inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { runnableJobs } from '@/server/runtime/job-handlers';

const api = usePublicApi();
let runner: LocalRunner;
beforeAll(async () => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
  runner = await startLocalRunner({ connectionString: process.env.DATABASE_URL!, definitions: runnableJobs, concurrency: 5, pollIntervalMs: 200 });
});
afterAll(async () => {
  await runner.stop();
  await closeJobs();
  vi.unstubAllEnvs();
});

async function staffOf(workspaceId: string) {
  const user = await db.user.create({ data: { email: `reviewer-${workspaceId}@example.com`, name: 'Reviewer' } });
  await db.membership.create({ data: { userId: user.id, workspaceId, role: 'owner' } });
  return { user, caller: createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id })) };
}

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const statusOf = async (id: string) => (await db.post.findUniqueOrThrow({ where: { id } })).status;

describe('scheduled delivery', () => {
  it('publishes a scheduled post at its time', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'on time', connectionIds: [w.ok.linkedin.id, w.ok.twitter.id], scheduledAt: inSeconds(1) },
    });
    expect(created.body.data.status).toBe('scheduled');
    await expect.poll(() => statusOf(created.body.data.id), { timeout: 15_000, interval: 200 }).toBe('published');
    const post = await db.post.findUniqueOrThrow({ where: { id: created.body.data.id }, include: { targets: true } });
    expect(post.targets.every((t) => t.status === 'published' && t.attempts === 1)).toBe(true);
  });

  it('does not publish at the old time after a reschedule, nor after a cancel', async () => {
    const w = await publishingWorkspace();
    const moved = await api('POST', '/posts', { key: w.secret, body: { content: 'moved', connectionIds: [w.ok.linkedin.id], scheduledAt: inSeconds(1) } });
    const cancelled = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'cancelled', connectionIds: [w.ok.linkedin.id], scheduledAt: inSeconds(1) },
    });
    const control = await api('POST', '/posts', { key: w.secret, body: { content: 'control', connectionIds: [w.ok.linkedin.id], scheduledAt: inSeconds(2) } });
    await api('PATCH', `/posts/${moved.body.data.id}`, { key: w.secret, body: { scheduledAt: inMinutes(60) } });
    await api('DELETE', `/posts/${cancelled.body.data.id}`, { key: w.secret });
    // Once a post scheduled after the old times went out, the old times have certainly passed.
    await expect.poll(() => statusOf(control.body.data.id), { timeout: 15_000, interval: 200 }).toBe('published');
    expect(await statusOf(moved.body.data.id)).toBe('scheduled');
    expect(await statusOf(cancelled.body.data.id)).toBe('cancelled');
  });

  it('a stale job from before a reschedule does nothing (version check)', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'v', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(60) } });
    const { runScheduledDelivery } = await import('@/server/posts/delivery/scheduled-delivery');
    const version = (await db.post.findUniqueOrThrow({ where: { id: created.body.data.id } })).scheduleVersion;
    await db.post.update({ where: { id: created.body.data.id }, data: { scheduledAt: new Date(Date.now() - 1000) } });
    await runScheduledDelivery(created.body.data.id, version - 1);
    expect(await statusOf(created.body.data.id)).toBe('scheduled');
  });

  it('catches up posts whose time passed while nothing ran', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'missed', connectionIds: [w.ok.facebook.id], scheduledAt: inMinutes(60) } });
    // Downtime: the job was lost and the time went by.
    await db.post.update({ where: { id: created.body.data.id }, data: { scheduledAt: new Date(Date.now() - 10 * 60_000), scheduleVersion: { increment: 1 } } });
    expect(await catchUpScheduledPosts()).toBeGreaterThanOrEqual(1);
    await expect.poll(() => statusOf(created.body.data.id), { timeout: 15_000, interval: 200 }).toBe('published');
  });
});

describe('approval', () => {
  it('a pending post does not go out at its time; approving it sends it at once', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const { user, caller } = await staffOf(w.workspace.id);
    const created = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'review me', connectionIds: [w.ok.linkedin.id], scheduledAt: inSeconds(1) },
    });
    const id = created.body.data.id;
    expect((await caller.posts.pendingApprovals()).data.map((p) => p.id)).toContain(id);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await statusOf(id)).toBe('scheduled');

    const approved = await caller.posts.approve({ id });
    expect(approved.data.approvalStatus).toBe('approved');
    expect((await eventsOf(id)).find((e) => e.type === 'post.approved')!.data).toEqual({ postId: id, approvedBy: user.id });
    await expect.poll(() => statusOf(id), { timeout: 15_000, interval: 200 }).toBe('published');
  });

  it('rejects with a reason; an edit of a rejected post puts it back to pending', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const { caller } = await staffOf(w.workspace.id);
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'nope', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) } });
    const id = created.body.data.id;
    const rejected = await caller.posts.reject({ id, reason: 'Off brand' });
    expect(rejected.data.approvalStatus).toBe('rejected');
    expect((await db.post.findUniqueOrThrow({ where: { id } })).rejectionReason).toBe('Off brand');
    const publish = await api('POST', `/posts/${id}/publish`, { key: w.secret });
    expect(publish.body.error.code).toBe('APPROVAL_REQUIRED');

    const edited = await api('PATCH', `/posts/${id}`, { key: w.secret, body: { content: 'on brand' } });
    expect(edited.body.data.approvalStatus).toBe('pending');
    expect(edited.body.warnings.map((x) => x.code)).toEqual(['APPROVAL_REQUIRED']);
    expect((await eventsOf(id)).filter((e) => e.type === 'post.approval_required')).toHaveLength(2);
  });

  it('is a member’s act: API keys cannot approve through the tRPC procedures', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) } });
    const keyCaller = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers({ authorization: `Bearer ${w.secret}` }) }));
    await expect(keyCaller.posts.approve({ id: created.body.data.id })).rejects.toThrow(/approved by a member/);
  });
});
