// Threads through delivery: part 1 is the post, each later part a reply to the part before,
// each recorded as it lands; a part the network refuses stops the thread there and a retry
// continues from it (never re-posting an earlier part); a part cut off by a crash is asked
// about before anything is sent again.
//
// The live cases run the X adapter and its reconciler against the local HTTPS stand-in, from
// the documented shapes:
//   https://docs.x.com/x-api/posts/manage-tweets/introduction (POST /2/tweets, reply.in_reply_to_tweet_id → 201 { data: { id, text } })
//   https://docs.x.com/x-api/fundamentals/response-codes-and-errors (403 with a problem body)
//   https://docs.x.com/x-api/posts/timelines/introduction (GET /2/users/:id/tweets, start_time)
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import type { LiveOverrides } from '@/server/platforms/testing/live-overrides';
import { createSandboxConnection, createWorkspaceWithKey, uniq } from '@/server/testing/fixtures';
import { eventsOf } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const live = vi.hoisted((): LiveOverrides => ({ platform: 'twitter', publisher: null, reconciler: null }));
vi.mock('@/server/platforms/registry', (original) => import('@/server/platforms/testing/live-overrides').then((m) => m.registryWith(original, live)));
vi.mock('@/server/platforms/reconcilers', (original) => import('@/server/platforms/testing/live-overrides').then((m) => m.reconcilersWith(original, live)));
const { createTwitterPublisher } = await import('@/server/platforms/twitter/twitter-publisher');
const { createTwitterReconciler } = await import('@/server/platforms/twitter/twitter-reconcile');
const { deliverPost } = await import('./deliver-post');
const { partKey } = await import('./thread-parts');

const api = usePublicApi();
const platform = useFakePlatformApi();
const ME = '2244994945';
const TIMELINE = `/2/users/${ME}/tweets`;
const PARTS = ['2/4 Pumpkin spice is back.', '3/4 New: maple pecan cold brew.', '4/4 See you Monday!'];

beforeEach(() => {
  const options = { fetch: platform.fetch, baseUrl: platform.baseUrl, clientId: '' };
  live.publisher = createTwitterPublisher(options);
  live.reconciler = createTwitterReconciler(options);
});

/** A stand-in for POST /2/tweets: numbered ids, and `refuse` answering 403 for a text while it returns true. */
function xPosts(refuse: (text: string) => boolean = () => false) {
  let next = 0;
  platform.on('POST', '/2/tweets', (request) => {
    const { text } = request.json();
    if (refuse(text))
      return { status: 403, json: { title: 'Forbidden', detail: 'You are not permitted to perform this action.', type: 'about:blank', status: 403 } };
    next += 1;
    return { status: 201, json: { data: { id: `19100000000000000${next}`, text, edit_history_tweet_ids: [] } } };
  });
}
const sent = () => platform.calls('POST', '/2/tweets').map((r) => r.json() as { text: string; reply?: { in_reply_to_tweet_id: string } });

async function liveThread(connectionExtra: { platform?: string } = {}) {
  const { workspace, secret } = await createWorkspaceWithKey();
  const connection = await db.connection.create({
    data: {
      workspaceId: workspace.id,
      platform: connectionExtra.platform ?? 'twitter',
      provider: 'live',
      externalId: ME,
      accountName: uniq('heraldcoffee'),
      displayName: 'Herald Coffee',
      accessToken: 'x-token',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  const created = await api('POST', '/posts', {
    key: secret,
    body: { content: '1/4 Our autumn menu is here.', connectionIds: [connection.id], parts: PARTS.map((content) => ({ content })) },
  });
  expect(created.status).toBe(201);
  return { workspace, secret, connection, postId: created.body.data.id as string };
}

const partsOf = (postId: string) => db.postThreadPart.findMany({ where: { target: { postId } }, orderBy: { position: 'asc' } });

describe('a thread on X', () => {
  it('posts part 1, then each part as a reply to the one before, and shows every part’s address', async () => {
    xPosts();
    const { secret, postId, connection } = await liveThread();

    const res = await api('POST', `/posts/${postId}/publish`, { key: secret });

    expect(res.body.data.status).toBe('published');
    expect(res.body.data.parts).toEqual(PARTS.map((content) => ({ content, mediaUrls: [] })));
    const calls = sent();
    expect(calls.map((c) => c.text)).toEqual(['1/4 Our autumn menu is here.', ...PARTS]);
    const ids = ['191000000000000001', '191000000000000002', '191000000000000003', '191000000000000004'];
    expect(calls.map((c) => c.reply?.in_reply_to_tweet_id)).toEqual([undefined, ...ids.slice(0, 3)]);
    const [target] = res.body.data.targets;
    expect(target).toMatchObject({ status: 'published', postedId: ids[0] });
    expect(target.thread).toEqual(
      [2, 3, 4].map((position, i) => ({
        position,
        status: 'posted',
        postedId: ids[i + 1],
        permalink: `https://x.com/${connection.accountName}/status/${ids[i + 1]}`,
        error: null,
        confirmedAt: null,
      })),
    );
    // One outcome per target, as for any post.
    expect((await eventsOf(postId)).filter((e) => e.type === 'post.published' || e.type === 'post.failed')).toHaveLength(1);
  });

  it('stops at a refused part 3, leaving parts 1 and 2 as they are; the retry sends parts 3 and 4 only', async () => {
    let refusing = true;
    xPosts((text) => refusing && text.startsWith('3/4'));
    const { secret, postId } = await liveThread();

    const first = await api('POST', `/posts/${postId}/publish`, { key: secret });

    expect(first.body.data.status).toBe('failed');
    expect(first.body.data.error).toBe('twitter: Part 3: You are not permitted to perform this action.');
    expect(first.body.data.targets[0].thread!.map((p) => p.status)).toEqual(['posted', 'failed', 'pending']);
    expect(sent().map((c) => c.text.slice(0, 3))).toEqual(['1/4', '2/4', '3/4']);

    refusing = false;
    const before = sent().length;
    const retried = await api('POST', `/posts/${postId}/retry`, { key: secret });

    expect(retried.status).toBe(201);
    expect(retried.body.data.status).toBe('published');
    const again = sent().slice(before);
    expect(again.map((c) => c.text.slice(0, 3))).toEqual(['3/4', '4/4']);
    const parts = await partsOf(postId);
    // Part 3 answers part 2 (posted before the refusal), part 4 answers part 3.
    expect(again.map((c) => c.reply?.in_reply_to_tweet_id)).toEqual([parts[0]!.postedId, parts[1]!.postedId]);
    expect(parts.map((p) => [p.position, p.status, p.attempts])).toEqual([
      [2, 'posted', 1],
      [3, 'posted', 2],
      [4, 'posted', 1],
    ]);
  });

  it('is refused at writing on a network without threads, and a part over the limit is named', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const linkedin = await createSandboxConnection(workspace.id, { platform: 'linkedin' });
    const bluesky = await createSandboxConnection(workspace.id, { platform: 'bluesky' });

    const refused = await api('POST', '/posts', { key: secret, body: { content: 'Autumn', connectionIds: [linkedin.id], parts: [{ content: 'More' }] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'THREAD_NOT_SUPPORTED', field: 'parts' });
    expect(refused.body.error.message).toBe('LinkedIn takes no threads: LinkedIn posts cannot answer each other. Post to it without parts');

    const long = await api('POST', '/posts', {
      key: secret,
      body: { content: 'Autumn', connectionIds: [bluesky.id], parts: [{ content: 'Fine' }, { content: 'x'.repeat(301) }] },
    });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ code: 'CONTENT_TOO_LONG', field: 'parts[1].content' });
    expect(long.body.error.message).toBe('Part 3 of the thread: Bluesky allows 300 graphemes; this text counts 301');

    // An edit is checked the same way: adding LinkedIn to a thread is refused.
    const draft = await api('POST', '/posts', { key: secret, body: { content: 'Autumn', connectionIds: [bluesky.id], parts: [{ content: 'More' }] } });
    expect(draft.status).toBe(201);
    const edited = await api('PATCH', `/posts/${draft.body.data.id}`, { key: secret, body: { connectionIds: [bluesky.id, linkedin.id] } });
    expect(edited.body.error).toMatchObject({ code: 'THREAD_NOT_SUPPORTED', field: 'parts' });
  });
});

/**
 * The state a crash leaves between parts: parts 1 and 2 posted, part 3 claimed and its request
 * possibly sent, the post still publishing under a lease that lapsed (its owner is dead).
 */
async function crashDuringPart3() {
  let refusing = true;
  xPosts((text) => refusing && text.startsWith('3/4'));
  const thread = await liveThread();
  await api('POST', `/posts/${thread.postId}/publish`, { key: thread.secret });
  refusing = false;
  const startedAt = new Date(Date.now() - 120_000);
  const target = await db.postTarget.findFirstOrThrow({ where: { postId: thread.postId } });
  await db.postThreadPart.update({
    where: { targetId_position: { targetId: target.id, position: 3 } },
    data: { status: 'posting', error: null, startedAt },
  });
  await db.post.update({
    where: { id: thread.postId },
    data: { status: 'publishing', deliveryOwner: 'dead-instance', deliveryLeaseUntil: new Date(Date.now() - 1_000) },
  });
  return { ...thread, target, startedAt };
}

describe('a crash between parts', () => {
  it('part 3 reached X before the crash: found by asking, recorded, and part 4 answers it; nothing sent twice', async () => {
    const { postId, target } = await crashDuringPart3();
    const landed = '191000000000000077';
    platform.on('GET', TIMELINE, {
      json: {
        data: [{ id: landed, text: PARTS[1], created_at: new Date(Date.now() - 100_000).toISOString(), edit_history_tweet_ids: [landed] }],
        meta: { result_count: 1, newest_id: landed, oldest_id: landed },
      },
    });
    const before = sent().length;

    await deliverPost({ postId, workspaceId: null, mode: 'scheduled' });

    const after = sent().slice(before);
    expect(after.map((c) => c.text)).toEqual([PARTS[2]]);
    expect(after[0]!.reply).toEqual({ in_reply_to_tweet_id: landed });
    const parts = await partsOf(postId);
    expect(parts[1]).toMatchObject({ position: 3, status: 'posted', postedId: landed, attempts: 1, confirmedAt: expect.any(Date) });
    expect(parts[2]).toMatchObject({ position: 4, status: 'posted' });
    expect((await db.post.findUniqueOrThrow({ where: { id: postId } })).status).toBe('published');
    expect(partKey(target.id, 3)).toBe(`${target.id}:part-3`);
  });

  it('part 3 never reached X: sent once, replying to part 2, then part 4', async () => {
    const { postId } = await crashDuringPart3();
    platform.on('GET', TIMELINE, { json: { meta: { result_count: 0 } } });
    const before = sent().length;

    await deliverPost({ postId, workspaceId: null, mode: 'scheduled' });

    const after = sent().slice(before);
    expect(after.map((c) => c.text)).toEqual([PARTS[1], PARTS[2]]);
    const parts = await partsOf(postId);
    expect(after[0]!.reply).toEqual({ in_reply_to_tweet_id: parts[0]!.postedId });
    expect(parts.map((p) => p.status)).toEqual(['posted', 'posted', 'posted']);
    expect(parts[1]).toMatchObject({ attempts: 2, confirmedAt: null });
  });

  it('X cannot be asked: part 3 fails with the evidence, and the retry asks again before sending it', async () => {
    const { postId, secret } = await crashDuringPart3();
    platform.on('GET', TIMELINE, { status: 503, json: { title: 'Service Unavailable', status: 503 } }, { json: { meta: { result_count: 0 } } });
    const before = sent().length;

    await deliverPost({ postId, workspaceId: null, mode: 'scheduled' });

    expect(sent().slice(before)).toEqual([]);
    const [, third] = await partsOf(postId);
    expect(third).toMatchObject({ status: 'failed', error: expect.stringContaining('Herald could not confirm whether it went out') });

    const retried = await api('POST', `/posts/${postId}/retry`, { key: secret });
    expect(retried.body.data.status).toBe('published');
    expect(platform.calls('GET', TIMELINE)).toHaveLength(2);
    expect(
      sent()
        .slice(before)
        .map((c) => c.text),
    ).toEqual([PARTS[1], PARTS[2]]);
  });
});

describe('a thread on demo accounts', () => {
  it('each part lands once on the demo network, under its own key', async () => {
    vi.stubEnv('SANDBOX_LATENCY_MS', '2');
    const { workspace, secret } = await createWorkspaceWithKey();
    const accounts = await Promise.all(['bluesky', 'mastodon', 'threads', 'twitter'].map((p) => createSandboxConnection(workspace.id, { platform: p })));
    const created = await api('POST', '/posts', {
      key: secret,
      body: { content: '1/4 Autumn', connectionIds: accounts.map((a) => a.id), parts: PARTS.map((content) => ({ content })) },
    });

    const res = await api('POST', `/posts/${created.body.data.id}/publish`, { key: secret });

    expect(res.body.data.status).toBe('published');
    for (const target of res.body.data.targets) {
      expect(target.thread!.map((p) => [p.status, Boolean(p.permalink?.includes('/demo-post/'))])).toEqual([
        ['posted', true],
        ['posted', true],
        ['posted', true],
      ]);
      const receipts = await db.sandboxReceipt.findMany({ where: { connectionId: target.connectionId } });
      expect(receipts.map((r) => r.idempotencyKey).sort()).toEqual([target.id, ...[2, 3, 4].map((n) => partKey(target.id, n))].sort());
    }
    vi.unstubAllEnvs();
  });
});
