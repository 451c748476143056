// Evergreen posts against PostgreSQL, on a clock the test moves (the `now` the job takes): a
// published post re-queued twice, each repeat a new post in the next free slot with the next
// text; X's duplicate-text window respected; the end date and the number of repeats; two runs
// at once queue one repeat; and the routes over HTTP with tenant isolation and scopes.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { duplicateWindowDays } from '@/server/platforms/catalogue';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { eventsOf, publishedTarget } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { normaliseText, requeueDueEvergreen } from './evergreen';

const api = usePublicApi();
const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);
const plus = (d: Date, days: number, minutes = 0) => new Date(d.getTime() + days * DAY + minutes * 60_000);

/** A workspace on UTC with a queue slot at 10:00 every weekday, and a LinkedIn and an X account. */
async function workspace() {
  const w = await createWorkspaceWithKey();
  await db.workspace.update({ where: { id: w.workspace.id }, data: { timeZone: 'UTC' } });
  const put = await api('PUT', '/queue/slots', { key: w.secret, body: { slots: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, time: '10:00' })) } });
  expect(put.status, put.text).toBe(200);
  const linkedin = await createSandboxConnection(w.workspace.id, { platform: 'linkedin' });
  const twitter = await createSandboxConnection(w.workspace.id, { platform: 'twitter' });
  return { ...w, linkedin, twitter };
}

async function makeEvergreen(key: string, postId: string, body: Record<string, unknown>) {
  const res = await api('PUT', `/posts/${postId}/evergreen`, { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { nextDueAt: string; status: string; repeats: number };
}

const repeatsOf = (sourceId: string) => db.post.findMany({ where: { evergreenOf: sourceId }, orderBy: { createdAt: 'asc' }, include: { targets: true } });

/** What delivery leaves when a repeat goes out at its slot. */
async function deliver(postId: string) {
  const post = await db.post.findUniqueOrThrow({ where: { id: postId } });
  await db.post.update({ where: { id: postId }, data: { status: 'published', publishedAt: post.scheduledAt } });
  await db.postTarget.updateMany({ where: { postId }, data: { status: 'published', publishedAt: post.scheduledAt, postedId: `posted-${postId}` } });
}

// Monday 1 March 2027, 10:00 UTC: the source post went out then.
const P0 = at('2027-03-01T10:00:00.000Z');

describe('an evergreen post', () => {
  it('is re-queued twice on a clock the test moves: each repeat a new post in the next free slot, with the next text', async () => {
    const w = await workspace();
    const { post: source } = await publishedTarget(w.workspace.id, w.linkedin.id, 'linkedin', P0, 'urn:li:share:1', 'Our autumn menu');
    const setting = await makeEvergreen(w.secret, source.id, { intervalDays: 7, texts: ['Text A', 'Text B'] });
    expect(setting).toMatchObject({ status: 'active', repeats: 0, nextDueAt: plus(P0, 7).toISOString() });

    // Not due yet.
    expect((await requeueDueEvergreen(plus(P0, 4))).queued).toEqual([]);

    // Tuesday's 10:00 is taken by another post on the account: the repeat takes the next free slot.
    await db.post.create({
      data: {
        workspaceId: w.workspace.id,
        content: 'Already queued',
        mediaUrls: [],
        platforms: ['linkedin'],
        connectionIds: [w.linkedin.id],
        status: 'scheduled',
        queued: true,
        scheduledAt: at('2027-03-09T10:00:00.000Z'),
        targets: { create: { connectionId: w.linkedin.id, platform: 'linkedin' } },
      },
    });
    const first = await requeueDueEvergreen(plus(P0, 7, 15));
    expect(first.queued).toHaveLength(1);
    let repeats = await repeatsOf(source.id);
    expect(repeats).toHaveLength(1);
    expect(repeats[0]).toMatchObject({ content: 'Text A', status: 'scheduled', queued: true, connectionIds: [w.linkedin.id] });
    expect(repeats[0]!.scheduledAt?.toISOString()).toBe('2027-03-10T10:00:00.000Z');

    // The next is due 7 days after the repeat's slot; while the repeat has not gone out, no other is queued.
    expect((await requeueDueEvergreen(at('2027-03-17T09:00:00.000Z'))).queued).toEqual([]);
    expect((await requeueDueEvergreen(at('2027-03-17T10:15:00.000Z'))).queued).toEqual([]);
    expect(await repeatsOf(source.id)).toHaveLength(1);
    expect((await db.evergreenPost.findUniqueOrThrow({ where: { postId: source.id } })).lastError).toBe('The last repeat has not gone out yet');

    // It goes out at its slot; the next run queues the second repeat in the next free slot from then.
    await deliver(repeats[0]!.id);
    const second = await requeueDueEvergreen(at('2027-03-17T11:30:00.000Z'));
    expect(second.queued).toHaveLength(1);
    repeats = await repeatsOf(source.id);
    expect(repeats.map((r) => r.content)).toEqual(['Text A', 'Text B']);
    expect(repeats[1]!.scheduledAt?.toISOString()).toBe('2027-03-18T10:00:00.000Z');

    const got = await api('GET', `/posts/${source.id}/evergreen`, { key: w.secret });
    expect(got.body.data).toMatchObject({ repeats: 2, lastQueuedPostId: repeats[1]!.id, status: 'active', nextDueAt: '2027-03-25T10:00:00.000Z' });
    const events = await eventsOf(repeats[1]!.id);
    expect(events.map((e) => e.type)).toEqual(['post.scheduled', 'post.evergreen_requeued']);
    expect(events[1]!.data).toEqual({ postId: repeats[1]!.id, sourcePostId: source.id, repeat: 2, scheduledAt: '2027-03-18T10:00:00.000Z', content: 'Text B' });

    // The third repeat rotates back to the first text.
    await deliver(repeats[1]!.id);
    await requeueDueEvergreen(at('2027-03-25T10:15:00.000Z'));
    expect((await repeatsOf(source.id)).map((r) => r.content)).toEqual(['Text A', 'Text B', 'Text A']);
  });

  it('never sends X a text it had within its duplicate window: the next text, or the repeat waits', async () => {
    expect(duplicateWindowDays('twitter')).toBe(30);
    expect(duplicateWindowDays('linkedin')).toBeNull();
    const w = await workspace();
    const { post: source } = await publishedTarget(w.workspace.id, w.twitter.id, 'twitter', P0, '1858000000000000000', 'Cold brew is back');

    // Only the post's own text: inside X's window, so the repeat waits until the window passes.
    await makeEvergreen(w.secret, source.id, { intervalDays: 7 });
    await requeueDueEvergreen(plus(P0, 7, 15));
    expect(await repeatsOf(source.id)).toEqual([]);
    let setting = await db.evergreenPost.findUniqueOrThrow({ where: { postId: source.id } });
    expect(setting.nextDueAt.toISOString()).toBe(plus(P0, 30).toISOString());
    expect(setting.lastError).toMatch(/X \(Twitter\) refuses a text it had within 30 days/);

    // With a second text, the first (the same words, differently spaced and cased) is passed over.
    await makeEvergreen(w.secret, source.id, { intervalDays: 7, texts: ['cold brew  IS back', 'Cold brew, all summer long'] });
    expect(normaliseText('cold brew  IS back')).toBe(normaliseText('Cold brew is back'));
    await requeueDueEvergreen(plus(P0, 7, 15));
    let repeats = await repeatsOf(source.id);
    expect(repeats.map((r) => r.content)).toEqual(['Cold brew, all summer long']);

    // Repeat 2 would take the second text (just sent) and then the first (sent on P0): both are
    // inside the window, so it waits until P0's leaves it, then goes with that one.
    await deliver(repeats[0]!.id);
    const due = plus(repeats[0]!.scheduledAt!, 7, 15);
    await requeueDueEvergreen(due);
    expect(await repeatsOf(source.id)).toHaveLength(1);
    setting = await db.evergreenPost.findUniqueOrThrow({ where: { postId: source.id } });
    expect(setting.nextDueAt.toISOString()).toBe(plus(P0, 30).toISOString());
    await requeueDueEvergreen(plus(P0, 30, 15));
    repeats = await repeatsOf(source.id);
    expect(repeats.map((r) => r.content)).toEqual(['Cold brew, all summer long', 'cold brew  IS back']);
    expect(repeats[1]!.scheduledAt!.getTime()).toBeGreaterThan(plus(P0, 30).getTime());
  });

  it('ends after maxRepeats, and at its end date', async () => {
    const w = await workspace();
    const { post: once } = await publishedTarget(w.workspace.id, w.linkedin.id, 'linkedin', P0, 'urn:li:share:2', 'Once more');
    await makeEvergreen(w.secret, once.id, { intervalDays: 7, maxRepeats: 1 });
    await requeueDueEvergreen(plus(P0, 7, 15));
    expect(await db.evergreenPost.findUniqueOrThrow({ where: { postId: once.id } })).toMatchObject({ status: 'ended', endedReason: 'max_repeats', repeats: 1 });
    await deliver((await repeatsOf(once.id))[0]!.id);
    await requeueDueEvergreen(plus(P0, 60));
    expect(await repeatsOf(once.id)).toHaveLength(1);

    const { post: dated } = await publishedTarget(w.workspace.id, w.linkedin.id, 'linkedin', P0, 'urn:li:share:3', 'Until the tenth');
    await makeEvergreen(w.secret, dated.id, { intervalDays: 7, endsAt: plus(P0, 10).toISOString() });
    await requeueDueEvergreen(plus(P0, 7, 15));
    const [repeat] = await repeatsOf(dated.id);
    expect(repeat).toBeDefined();
    await deliver(repeat!.id);
    await requeueDueEvergreen(plus(P0, 20));
    expect(await db.evergreenPost.findUniqueOrThrow({ where: { postId: dated.id } })).toMatchObject({ status: 'ended', endedReason: 'ends_at' });
    expect(await repeatsOf(dated.id)).toHaveLength(1);
  });

  it('queues one repeat when two runs are due at once', async () => {
    const w = await workspace();
    const { post: source } = await publishedTarget(w.workspace.id, w.linkedin.id, 'linkedin', P0, 'urn:li:share:4', 'Twice at once?');
    await makeEvergreen(w.secret, source.id, { intervalDays: 7 });
    const runs = await Promise.all([1, 2, 3].map(() => requeueDueEvergreen(plus(P0, 7, 15))));
    const repeats = await repeatsOf(source.id);
    expect(repeats).toHaveLength(1);
    expect(runs.flatMap((r) => r.queued).filter((id) => id === repeats[0]!.id)).toHaveLength(1);
    expect(await db.evergreenPost.findUniqueOrThrow({ where: { postId: source.id } })).toMatchObject({ repeats: 1 });
    const requeued = await db.outboxEvent.count({ where: { workspaceId: w.workspace.id, type: 'post.evergreen_requeued' } });
    expect(requeued).toBe(1);
  });
});

describe('the evergreen routes', () => {
  it('refuse a post that is not published, a repeat, and a text too long for a network', async () => {
    const w = await workspace();
    const draft = await api('POST', '/posts', { key: w.secret, body: { content: 'Not yet', connectionIds: [w.linkedin.id] } });
    expect(draft.status, draft.text).toBe(201);
    const refused = await api('PUT', `/posts/${draft.body.data.id}/evergreen`, { key: w.secret, body: { intervalDays: 7 } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'EVERGREEN_NOT_ELIGIBLE' } });

    const { post: source } = await publishedTarget(w.workspace.id, w.twitter.id, 'twitter', P0, '1858000000000000001', 'Short');
    const tooLong = await api('PUT', `/posts/${source.id}/evergreen`, { key: w.secret, body: { intervalDays: 7, texts: ['Fine', 'x'.repeat(300)] } });
    expect(tooLong.body).toMatchObject({ error: { code: 'CONTENT_TOO_LONG', field: 'texts[1]' } });
    const badInterval = await api('PUT', `/posts/${source.id}/evergreen`, { key: w.secret, body: { intervalDays: 0 } });
    expect(badInterval.status).toBe(400);
    const past = await api('PUT', `/posts/${source.id}/evergreen`, { key: w.secret, body: { intervalDays: 7, endsAt: '2020-01-01T00:00:00Z' } });
    expect(past.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'endsAt' } });

    await makeEvergreen(w.secret, source.id, { intervalDays: 7, texts: ['One', 'Two'] });
    await requeueDueEvergreen(plus(P0, 7, 15));
    const [repeat] = await repeatsOf(source.id);
    await deliver(repeat!.id);
    const ofRepeat = await api('PUT', `/posts/${repeat!.id}/evergreen`, { key: w.secret, body: { intervalDays: 7 } });
    expect(ofRepeat.body).toMatchObject({ error: { code: 'EVERGREEN_NOT_ELIGIBLE' } });
  });

  it('read, list, stop; another workspace’s post is unknown; writes need posts:write', async () => {
    const w = await workspace();
    const { post: a } = await publishedTarget(w.workspace.id, w.linkedin.id, 'linkedin', P0, 'urn:li:share:5', 'A');
    const { post: b } = await publishedTarget(w.workspace.id, w.linkedin.id, 'linkedin', P0, 'urn:li:share:6', 'B');
    await makeEvergreen(w.secret, a.id, { intervalDays: 30 });
    await makeEvergreen(w.secret, b.id, { intervalDays: 60, maxRepeats: 3 });

    const page1 = await api('GET', '/evergreen?limit=1', { key: w.secret });
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body.data).toHaveLength(1);
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await api('GET', `/evergreen?limit=1&cursor=${page1.body.nextCursor}`, { key: w.secret });
    expect(page2.body.nextCursor).toBeNull();
    expect([page1.body.data[0].postId, page2.body.data[0].postId].sort()).toEqual([a.id, b.id].sort());

    const stopped = await api('DELETE', `/posts/${a.id}/evergreen`, { key: w.secret });
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.body.data).toMatchObject({ status: 'ended', endedReason: 'stopped' });
    expect((await api('GET', '/evergreen', { key: w.secret })).body.data.map((e: { postId: string }) => e.postId)).toEqual([b.id]);
    expect((await api('GET', '/evergreen?status=ended', { key: w.secret })).body.data.map((e: { postId: string }) => e.postId)).toEqual([a.id]);
    expect((await api('GET', '/evergreen?cursor=nonsense', { key: w.secret })).status).toBe(400);
    // A stopped setting queues nothing.
    await requeueDueEvergreen(plus(P0, 40));
    expect(await repeatsOf(a.id)).toHaveLength(0);
    // PUT starts it again.
    expect(await makeEvergreen(w.secret, a.id, { intervalDays: 30 })).toMatchObject({ status: 'active' });

    const other = await createWorkspaceWithKey();
    const foreignPut = await api('PUT', `/posts/${b.id}/evergreen`, { key: other.secret, body: { intervalDays: 7 } });
    expect(foreignPut.status).toBe(404);
    expect(foreignPut.body).toMatchObject({ error: { code: 'POST_NOT_FOUND' } });
    const foreignGet = await api('GET', `/posts/${b.id}/evergreen`, { key: other.secret });
    expect(foreignGet.body).toMatchObject({ error: { code: 'EVERGREEN_NOT_FOUND' } });
    expect((await api('DELETE', `/posts/${b.id}/evergreen`, { key: other.secret })).status).toBe(404);
    expect((await api('GET', '/evergreen', { key: other.secret })).body.data).toEqual([]);
    expect((await api('GET', `/posts/${a.id}/evergreen`, { key: w.secret })).status).toBe(200);
    expect((await api('GET', '/posts/not-a-uuid/evergreen', { key: w.secret })).body).toMatchObject({ error: { code: 'EVERGREEN_NOT_FOUND' } });

    const readOnly = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    const { post: c } = await publishedTarget(
      readOnly.workspace.id,
      (await createSandboxConnection(readOnly.workspace.id)).id,
      'linkedin',
      P0,
      'urn:li:share:7',
    );
    expect((await api('PUT', `/posts/${c.id}/evergreen`, { key: readOnly.secret, body: { intervalDays: 7 } })).status).toBe(403);
    expect((await api('GET', '/evergreen', { key: readOnly.secret })).status).toBe(200);
  });
});
