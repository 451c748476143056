// Delivery claims prove they are alive: a live delivery is never touched, a dead one is taken
// over within one lease, and every terminal target has exactly one outcome event.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { deliverPost } from '@/server/posts/delivery/deliver-post';
import { UNCONFIRMED_CODE } from '@/server/posts/delivery/settle';
import { heldLeases, INSTANCE_ID } from '@/server/posts/delivery/lease';
import { catchUpScheduledPosts } from '@/server/posts/delivery/scheduled-delivery';
import { usePublicApi } from '@/server/testing/public-api';
import { eventsOf, publishingWorkspace } from '@/server/testing/posts-fixtures';

const api = usePublicApi();
beforeEach(() => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** The state `kill -9` leaves: post publishing under another instance, one target mid-call, one never tried. */
async function crashedDelivery(leaseUntil: Date) {
  const w = await publishingWorkspace();
  const created = await api('POST', '/posts', { key: w.secret, body: { content: 'crash', connectionIds: [w.ok.linkedin.id, w.ok.facebook.id] } });
  const id: string = created.body.data.id;
  const [midCall, untouched] = (await db.postTarget.findMany({ where: { postId: id } })).sort((a, b) => (a.platform < b.platform ? 1 : -1));
  await db.post.update({ where: { id }, data: { status: 'publishing', deliveryOwner: 'other-host/4242/deadbeef', deliveryLeaseUntil: leaseUntil } });
  await db.postTarget.update({ where: { id: midCall!.id }, data: { status: 'publishing', attempts: 1, attemptStartedAt: new Date() } });
  return { w, id, midCall: midCall!, untouched: untouched! };
}

async function outcomeEventsByTarget(postId: string): Promise<Map<string, string[]>> {
  const byTarget = new Map<string, string[]>();
  for (const e of await eventsOf(postId)) {
    if (e.type !== 'post.published' && e.type !== 'post.failed') continue;
    const t = e.data.targetId as string;
    byTarget.set(t, [...(byTarget.get(t) ?? []), e.type]);
  }
  return byTarget;
}

describe('delivery leases', () => {
  it('leaves a delivery with a live lease alone: the job does nothing, publish answers 409, the sweep waits for the lease', async () => {
    const { w, id, midCall } = await crashedDelivery(new Date(Date.now() + 20_000));
    expect(await deliverPost({ workspaceId: null, postId: id, mode: 'scheduled' })).toBe(false);
    const again = await api('POST', `/posts/${id}/publish`, { key: w.secret });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('POST_NOT_EDITABLE');
    await catchUpScheduledPosts();
    const post = await db.post.findUniqueOrThrow({ where: { id }, include: { targets: true } });
    expect(post).toMatchObject({ status: 'publishing', deliveryOwner: 'other-host/4242/deadbeef' });
    expect(post.targets.find((t) => t.id === midCall.id)).toMatchObject({ status: 'publishing', error: null });
    // The sweep booked a wake-up for when that lease would lapse.
    const wake = await db.$queryRaw<{ run_at: Date }[]>`SELECT run_at FROM graphile_worker.jobs WHERE key = 'posts.catch-up:lease'`;
    expect(wake).toHaveLength(1);
    expect(Math.abs(wake[0]!.run_at.getTime() - (post.deliveryLeaseUntil!.getTime() + 1000))).toBeLessThan(50);
  });

  it('takes over a delivery whose lease lapsed: an interrupted target it cannot settle fails with one post.failed, the untried one is delivered', async () => {
    const { w, id, midCall, untouched } = await crashedDelivery(new Date(Date.now() - 1000));
    const res = await api('POST', `/posts/${id}/publish`, { key: w.secret });
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('partial_published');
    const targets = new Map(res.body.data.targets.map((t) => [t.id, t]));
    // Cut off before Herald recorded what it sends: nothing to ask the network about.
    expect(targets.get(midCall.id)).toMatchObject({ status: 'failed', error: expect.stringContaining('could not confirm what happened'), attempts: 1 });
    expect(targets.get(untouched.id)).toMatchObject({ status: 'published', attempts: 1 });

    const events = await outcomeEventsByTarget(id);
    expect(events.get(midCall.id)).toEqual(['post.failed']);
    expect(events.get(untouched.id)).toEqual(['post.published']);
    const failed = (await eventsOf(id)).find((e) => e.type === 'post.failed')!;
    expect(failed.data).toMatchObject({ targetId: midCall.id, error: { code: UNCONFIRMED_CODE, message: expect.stringContaining('Check the account') } });
    const post = await db.post.findUniqueOrThrow({ where: { id } });
    expect(post).toMatchObject({ deliveryOwner: null, deliveryLeaseUntil: null });
  });

  it('the sweep hands a lapsed delivery to the delivery job, which settles it', async () => {
    const { id } = await crashedDelivery(new Date(Date.now() - 1000));
    expect(await catchUpScheduledPosts()).toBe(1);
    const job = await db.$queryRaw<{ task_identifier: string }[]>`SELECT task_identifier FROM graphile_worker.jobs WHERE key = ${`post-delivery:${id}`}`;
    expect(job.map((j) => j.task_identifier)).toEqual(['posts.deliver']);
    const { runScheduledDelivery } = await import('@/server/posts/delivery/scheduled-delivery');
    const post = await db.post.findUniqueOrThrow({ where: { id } });
    await runScheduledDelivery(id, post.scheduleVersion);
    expect((await db.post.findUniqueOrThrow({ where: { id } })).status).toBe('partial_published');
  });

  it('renews the lease while platform calls outlast it, so nobody takes a live delivery over', async () => {
    vi.stubEnv('DELIVERY_LEASE_SECONDS', '1');
    vi.stubEnv('SANDBOX_LATENCY_MS', '2500');
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'slow', connectionIds: [w.ok.linkedin.id] } });
    const id: string = created.body.data.id;
    const publishing = deliverPost({ workspaceId: w.workspace.id, postId: id });
    await sleep(1800); // longer than the lease: only renewals keep it alive
    const during = await db.post.findUniqueOrThrow({ where: { id } });
    expect(during).toMatchObject({ status: 'publishing', deliveryOwner: INSTANCE_ID });
    expect(during.deliveryLeaseUntil!.getTime()).toBeGreaterThan(Date.now());
    expect(heldLeases()).toContain(id);
    expect(await deliverPost({ workspaceId: null, postId: id, mode: 'scheduled' })).toBe(false);
    expect(await publishing).toBe(true);
    const post = await db.post.findUniqueOrThrow({ where: { id }, include: { targets: true } });
    expect(post.status).toBe('published');
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1 });
    expect(heldLeases()).not.toContain(id);
  });

  it('a late answer from a presumed-dead owner changes nothing: exactly one outcome event per target', async () => {
    vi.stubEnv('SANDBOX_LATENCY_MS', '1500');
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'late', connectionIds: [w.ok.linkedin.id, w.ok.twitter.id] } });
    const id: string = created.body.data.id;
    const slow = deliverPost({ workspaceId: w.workspace.id, postId: id });
    await sleep(400);
    // The owner looks dead to everyone else (its renewals stopped landing, e.g. a long pause).
    await db.post.update({ where: { id }, data: { deliveryOwner: 'paused-host/1/00000000', deliveryLeaseUntil: new Date(Date.now() - 1000) } });
    expect(await deliverPost({ workspaceId: null, postId: id, mode: 'scheduled' })).toBe(true);
    await slow;
    const post = await db.post.findUniqueOrThrow({ where: { id }, include: { targets: true } });
    expect(post.status).toBe('failed');
    // Asked 0.4 s into the attempt, the demo network had nothing yet: too soon to believe (the
    // request may still land), so a person decides; the late answer writes nothing.
    for (const t of post.targets) expect(t).toMatchObject({ status: 'failed', error: expect.stringContaining('may still land'), postedId: null });
    const events = await outcomeEventsByTarget(id);
    for (const t of post.targets) expect(events.get(t.id)).toEqual(['post.failed']);
  });
});
