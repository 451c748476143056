// The posting queue against PostgreSQL over the REST facade: slots on the workspace's clock,
// posts placed in the next free slot shared by their accounts, a slot freed by whatever moves
// or removes its post, concurrent adds never sharing a slot, pause and resume, shuffle.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { catchUpScheduledPosts } from '@/server/posts/delivery/scheduled-delivery';
import { deliverPost } from '@/server/posts/delivery/deliver-post';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { slotInstants } from './posting-queue';

const api = usePublicApi();

async function workspaceWithQueue(timeZone = 'Europe/Paris') {
  const w = await createWorkspaceWithKey();
  await db.workspace.update({ where: { id: w.workspace.id }, data: { timeZone } });
  const a = await createSandboxConnection(w.workspace.id, { platform: 'linkedin' });
  const b = await createSandboxConnection(w.workspace.id, { platform: 'twitter' });
  return { ...w, a, b };
}

const addToQueue = (key: string, connectionIds: string[], content = 'Queued post') =>
  api('POST', '/posts', { key, body: { content, connectionIds, queue: true } });

const localTime = (iso: string, timeZone = 'Europe/Paris') =>
  new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(iso));

describe('slots', () => {
  it('fall on the workspace’s clock, across a change of daylight saving time', () => {
    const instants = slotInstants([{ weekday: 7, minute: 9 * 60 }], 'Europe/Paris', new Date('2026-10-20T00:00:00Z'), 14);
    // The clocks go back on Sunday 25 October 2026: 09:00 is 07:00Z before, 08:00Z after.
    expect(instants.map((d) => d.toISOString())).toEqual(['2026-10-25T08:00:00.000Z', '2026-11-01T08:00:00.000Z']);
    const before = slotInstants([{ weekday: 7, minute: 9 * 60 }], 'Europe/Paris', new Date('2026-10-13T00:00:00Z'), 6);
    expect(before.map((d) => d.toISOString())).toEqual(['2026-10-18T07:00:00.000Z']);
  });

  it('are set per workspace or per account, listed with the coming instants and what takes them', async () => {
    const s = await workspaceWithQueue();
    const put = await api('PUT', '/queue/slots', {
      key: s.secret,
      body: {
        slots: [
          { weekday: 1, time: '09:00' },
          { weekday: 3, time: '12:30' },
          { weekday: 1, time: '09:00' },
        ],
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data.slots).toEqual([
      { connectionId: null, weekday: 1, time: '09:00' },
      { connectionId: null, weekday: 3, time: '12:30' },
    ]);
    await api('PUT', '/queue/slots', { key: s.secret, body: { connectionId: s.b.id, slots: [{ weekday: 3, time: '12:30' }] } });
    const res = await api('GET', '/queue?days=14', { key: s.secret });
    expect(res.status, res.text).toBe(200);
    const upcoming = res.body.data.upcoming as { at: string; connectionId: string; postId: string | null }[];
    expect(new Set(upcoming.filter((u) => u.connectionId === s.a.id).map((u) => localTime(u.at)))).toEqual(new Set(['Mon 09:00', 'Wed 12:30']));
    expect(new Set(upcoming.filter((u) => u.connectionId === s.b.id).map((u) => localTime(u.at)))).toEqual(new Set(['Wed 12:30']));
    expect(upcoming.every((u) => u.postId === null)).toBe(true);

    const bad = await api('PUT', '/queue/slots', { key: s.secret, body: { slots: [{ weekday: 8, time: '25:00' }] } });
    expect(bad.status).toBe(400);
    const foreign = await createWorkspaceWithKey();
    const notHers = await api('PUT', '/queue/slots', { key: foreign.secret, body: { connectionId: s.a.id, slots: [] } });
    expect(notHers.body).toMatchObject({ error: { code: 'CONNECTION_NOT_FOUND', field: 'connectionId' } });
    const readOnly = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    expect((await api('PUT', '/queue/slots', { key: readOnly.secret, body: { slots: [] } })).status).toBe(403);
  });
});

describe('adding to the queue', () => {
  it('takes the next free slot shared by every account; removing a post frees its slot', async () => {
    const s = await workspaceWithQueue();
    await api('PUT', '/queue/slots', { key: s.secret, body: { slots: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, time: '10:00' })) } });
    const first = await addToQueue(s.secret, [s.a.id, s.b.id], 'first');
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({ status: 'scheduled', queued: true });
    const second = await addToQueue(s.secret, [s.a.id]);
    const third = await addToQueue(s.secret, [s.b.id]);
    const at = [first, second, third].map((r) => r.body.data.scheduledAt as string);
    expect(localTime(at[0]!)).toMatch(/10:00$/);
    expect(new Date(at[1]!) > new Date(at[0]!)).toBe(true);
    // B's next free slot after the first post is the same one A's second post took: accounts queue independently.
    expect(at[2]).toBe(at[1]);

    // Cancelling the first post frees its slot for both accounts: the next add takes it.
    expect((await api('DELETE', `/posts/${first.body.data.id}`, { key: s.secret })).status).toBe(200);
    const fourth = await addToQueue(s.secret, [s.a.id, s.b.id]);
    expect(fourth.body.data.scheduledAt).toBe(at[0]);

    // A time chosen by hand takes the post out of the queue.
    const moved = await api('PATCH', `/posts/${second.body.data.id}`, {
      key: s.secret,
      body: { scheduledAt: new Date(Date.now() + 3 * 86_400_000 + 7 * 60_000).toISOString() },
    });
    expect(moved.body.data).toMatchObject({ queued: false });
    const queue = await api('GET', '/queue?days=14', { key: s.secret });
    const taken = (queue.body.data.upcoming as { at: string; postId: string | null }[]).filter((u) => u.postId);
    expect(taken.map((u) => u.postId).sort()).toEqual([fourth.body.data.id, fourth.body.data.id, third.body.data.id].sort());
  });

  it('never gives one slot to two posts added at the same moment', async () => {
    const s = await workspaceWithQueue('UTC');
    await api('PUT', '/queue/slots', { key: s.secret, body: { slots: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time: '08:15' })) } });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => addToQueue(s.secret, [s.a.id], `concurrent ${i}`)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const times = results.map((r) => r.body.data.scheduledAt as string);
    expect(new Set(times).size).toBe(8);
    expect(times.every((t) => t.endsWith('T08:15:00.000Z'))).toBe(true);
  });

  it('says what is wrong: both a time and the queue, an account without slots', async () => {
    const s = await workspaceWithQueue();
    const both = await api('POST', '/posts', {
      key: s.secret,
      body: { content: 'x', connectionIds: [s.a.id], queue: true, scheduledAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(both.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'queue' } });
    const none = await addToQueue(s.secret, [s.a.id]);
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ error: { code: 'QUEUE_NO_SLOTS', field: 'connectionIds' } });
    expect(await db.post.count({ where: { workspaceId: s.workspace.id } })).toBe(0);
    // Only B has slots of its own; a post to A and B still needs one A has.
    await api('PUT', '/queue/slots', { key: s.secret, body: { connectionId: s.b.id, slots: [{ weekday: 2, time: '11:00' }] } });
    expect((await addToQueue(s.secret, [s.b.id])).status).toBe(201);
    expect((await addToQueue(s.secret, [s.a.id, s.b.id])).body).toMatchObject({ error: { code: 'QUEUE_NO_SLOTS' } });
  });
});

describe('pause, resume and shuffle', () => {
  it('a paused queue’s posts are held past their time, then moved to free slots on resume', async () => {
    const s = await workspaceWithQueue('UTC');
    await api('PUT', '/queue/slots', { key: s.secret, body: { slots: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time: '06:00' })) } });
    const post = await addToQueue(s.secret, [s.a.id]);
    const manual = await api('POST', '/posts', {
      key: s.secret,
      body: { content: 'by hand', connectionIds: [s.a.id], scheduledAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect((await api('POST', '/queue/pause', { key: s.secret, body: {} })).body.data.pausedAt).not.toBeNull();
    // Its slot passes while paused (set back in time, as the clock would).
    const past = new Date(Date.now() - 10 * 60_000);
    await db.post.updateMany({ where: { id: { in: [post.body.data.id, manual.body.data.id] } }, data: { scheduledAt: past } });
    // The sweep sends on the post scheduled by hand (not the queue's), not the held one; the
    // scheduled delivery of the held one does not claim it.
    expect(await catchUpScheduledPosts({ graceMs: 0 })).toBe(1);
    const held = await db.post.findUniqueOrThrow({ where: { id: post.body.data.id } });
    expect(await deliverPost({ workspaceId: s.workspace.id, postId: held.id, mode: 'scheduled', expectedVersion: held.scheduleVersion })).toBe(false);
    expect((await db.post.findUniqueOrThrow({ where: { id: post.body.data.id } })).status).toBe('scheduled');

    const resumed = await api('POST', '/queue/resume', { key: s.secret, body: {} });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.data.pausedAt).toBeNull();
    expect(resumed.body.data.moved).toHaveLength(1);
    const after = await db.post.findUniqueOrThrow({ where: { id: post.body.data.id } });
    expect(after.scheduledAt!.getTime()).toBeGreaterThan(Date.now());
    expect(after.scheduledAt!.toISOString()).toMatch(/T06:00:00\.000Z$/);
    expect(after.status).toBe('scheduled');
  });

  it('shuffle gives the same slots to the same posts in another order', async () => {
    const s = await workspaceWithQueue('UTC');
    await api('PUT', '/queue/slots', { key: s.secret, body: { slots: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time: '14:00' })) } });
    const posts = [];
    for (let i = 0; i < 6; i++) posts.push((await addToQueue(s.secret, [s.a.id], `post ${i}`)).body.data as { id: string; scheduledAt: string });
    const before = new Map(posts.map((p) => [p.id, p.scheduledAt]));
    const res = await api('POST', '/queue/shuffle', { key: s.secret, body: {} });
    expect(res.status, res.text).toBe(200);
    const rows = await db.post.findMany({ where: { id: { in: posts.map((p) => p.id) } } });
    expect(rows.map((r) => r.scheduledAt!.toISOString()).sort()).toEqual([...before.values()].sort());
    expect(res.body.data.moved.length).toBe(rows.filter((r) => r.scheduledAt!.toISOString() !== before.get(r.id)).length);
    for (const m of res.body.data.moved) expect(m.from).toBe(before.get(m.postId));
    expect(res.body.data.pausedAt).toBeNull();

    // Shuffling a paused queue keeps it paused, and says so.
    const paused = (await api('POST', '/queue/pause', { key: s.secret, body: {} })).body.data.pausedAt;
    const again = await api('POST', '/queue/shuffle', { key: s.secret, body: {} });
    expect(again.body.data.pausedAt).toBe(paused);
  });
});
