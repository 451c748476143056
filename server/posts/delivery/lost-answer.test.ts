// A platform call whose answer is lost after its request may have arrived (the deadline passed,
// the connection dropped) is settled by asking the network, as an interrupted one is: never
// failed as "may or may not have been published", never sent a second time blind.
//
// The live cases run the X adapter and its reconciler against the local HTTPS stand-in, from
// the documented shapes:
//   https://docs.x.com/x-api/posts/creation-of-a-post (POST /2/tweets → 201 { data: { id, text } })
//   https://docs.x.com/x-api/posts/timelines/introduction (GET /2/users/:id/tweets, start_time)
// The stand-in holds its answer to POST /2/tweets past the adapter's deadline. The demo cases
// lose the answer after the demo network accepted the post (SANDBOX_LOST_ANSWERS_PERCENT).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

const api = usePublicApi();
const platform = useFakePlatformApi();
const ME = '2244994945';
const TWEET = '1994100000000000002';
const TIMELINE = `/2/users/${ME}/tweets`;
/** The adapter's deadline for one request; the stand-in answers POST /2/tweets after twice that. */
const DEADLINE_MS = 400;

beforeEach(() => {
  const options = { fetch: platform.fetch, baseUrl: platform.baseUrl, clientId: '', timeoutMs: DEADLINE_MS };
  live.publisher = createTwitterPublisher(options);
  live.reconciler = createTwitterReconciler(options);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

async function liveXPost(content: string) {
  const { workspace, secret } = await createWorkspaceWithKey();
  const connection = await db.connection.create({
    data: {
      workspaceId: workspace.id,
      platform: 'twitter',
      provider: 'live',
      externalId: ME,
      accountName: uniq('heraldcoffee'),
      displayName: 'Herald Coffee',
      accessToken: 'x-token',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  const created = await api('POST', '/posts', { key: secret, body: { content, connectionIds: [connection.id] } });
  expect(created.status).toBe(201);
  return { secret, connection, postId: created.body.data.id as string };
}

/** The account's timeline as X answers it: the posts given, newest first. */
const timeline = (posts: { id: string; text: string }[]) => ({
  json: posts.length
    ? {
        data: posts.map((p) => ({ ...p, created_at: new Date().toISOString(), edit_history_tweet_ids: [p.id] })),
        meta: { result_count: posts.length, newest_id: posts[0]!.id, oldest_id: posts.at(-1)!.id },
      }
    : { meta: { result_count: 0 } },
});

/**
 * Moves Herald's clock a minute on when the stand-in receives a post, so "not there" is
 * believed of the attempt (a request older than ABSENT_TRUSTED_AFTER_MS cannot still land).
 * Only Date is replaced: deadlines and timers run as they do.
 */
function attemptsLookOld() {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  return () => vi.setSystemTime(Date.now() + 60_000);
}

describe('an answer lost after the request left', () => {
  it('X made the post: published with its id and permalink, confirmed, no second create call', async () => {
    const content = `Answer lost ${uniq('x')}`;
    const { secret, postId, connection } = await liveXPost(content);
    platform.on('POST', '/2/tweets', { delayMs: DEADLINE_MS * 2, status: 201, json: { data: { id: TWEET, text: content, edit_history_tweet_ids: [TWEET] } } });
    platform.on('GET', TIMELINE, timeline([{ id: TWEET, text: content }]));

    const res = await api('POST', `/posts/${postId}/publish`, { key: secret });

    expect(res.body.data.status).toBe('published');
    expect(res.body.data.targets[0]).toMatchObject({
      status: 'published',
      postedId: TWEET,
      permalink: `https://x.com/${connection.accountName}/status/${TWEET}`,
      confirmedAt: expect.any(String),
    });
    expect(platform.calls('POST', '/2/tweets')).toHaveLength(1);
    expect(platform.calls('GET', TIMELINE)).toHaveLength(1);
    const outcomes = (await eventsOf(postId)).filter((e) => e.type === 'post.published' || e.type === 'post.failed');
    expect(outcomes).toEqual([
      expect.objectContaining({ type: 'post.published', data: expect.objectContaining({ postedId: TWEET, confirmedAt: expect.any(String) }) }),
    ]);
  });

  it('X says it has no such post: sent exactly once more, with the answer recorded', async () => {
    const content = `Answer lost, nothing made ${uniq('x')}`;
    const { secret, postId } = await liveXPost(content);
    const later = attemptsLookOld();
    platform.on(
      'POST',
      '/2/tweets',
      () => {
        later();
        return { delayMs: DEADLINE_MS * 2, status: 503, json: { title: 'Service Unavailable' } };
      },
      { status: 201, json: { data: { id: TWEET, text: content, edit_history_tweet_ids: [TWEET] } } },
    );
    platform.on('GET', TIMELINE, timeline([]));

    const res = await api('POST', `/posts/${postId}/publish`, { key: secret });

    expect(res.body.data.targets[0]).toMatchObject({ status: 'published', postedId: TWEET, confirmedAt: null });
    const target = await db.postTarget.findFirstOrThrow({ where: { postId } });
    expect(target).toMatchObject({ attempts: 2, settlement: 'The account has written no post on X since the attempt began' });
    expect(platform.calls('POST', '/2/tweets')).toHaveLength(2);
    expect((await eventsOf(postId)).filter((e) => e.type === 'post.published' || e.type === 'post.failed').map((e) => e.type)).toEqual(['post.published']);
  });

  it('the one resend loses its answer too and X has nothing: failed with the error, never a third send', async () => {
    const content = `Answer lost twice ${uniq('x')}`;
    const { secret, postId } = await liveXPost(content);
    const later = attemptsLookOld();
    platform.on('POST', '/2/tweets', () => {
      later();
      return { delayMs: DEADLINE_MS * 2, status: 503 };
    });
    platform.on('GET', TIMELINE, timeline([]));

    const res = await api('POST', `/posts/${postId}/publish`, { key: secret });

    expect(res.body.data.status).toBe('failed');
    expect(res.body.data.targets[0]).toMatchObject({ status: 'failed', error: expect.stringContaining(`did not answer within ${DEADLINE_MS} ms`) });
    expect(platform.calls('POST', '/2/tweets')).toHaveLength(2);
    const outcomes = (await eventsOf(postId)).filter((e) => e.type === 'post.published' || e.type === 'post.failed');
    expect(outcomes).toEqual([
      expect.objectContaining({ type: 'post.failed', data: expect.objectContaining({ error: expect.objectContaining({ code: 'PLATFORM_ERROR' }) }) }),
    ]);
    // A plain failure: X said it has nothing, so a retry needs no confirmation.
    const retried = await api('POST', `/posts/${postId}/retry`, { key: secret });
    expect(retried.status).toBe(201);
    expect(res.body.data.targets[0].error).toContain('X (Twitter), asked, does not have the post');
  });

  it('X cannot be read either: unconfirmed, with the evidence, for a person', async () => {
    const content = `Answer lost, X down ${uniq('x')}`;
    const { secret, postId } = await liveXPost(content);
    platform.on('POST', '/2/tweets', { delayMs: DEADLINE_MS * 2, status: 201, json: { data: { id: TWEET } } });
    platform.on('GET', TIMELINE, { status: 503, json: { title: 'Service Unavailable', detail: 'Service Unavailable', status: 503 } });

    const res = await api('POST', `/posts/${postId}/publish`, { key: secret });

    expect(res.body.data.targets[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('Herald could not confirm what happened') });
    expect(platform.calls('POST', '/2/tweets')).toHaveLength(1);
    const failed = (await eventsOf(postId)).filter((e) => e.type === 'post.failed');
    expect(failed).toEqual([expect.objectContaining({ data: expect.objectContaining({ error: expect.objectContaining({ code: 'DELIVERY_UNCONFIRMED' }) }) })]);
    // Never sent again by accident: a retry must say it checked.
    const retried = await api('POST', `/posts/${postId}/retry`, { key: secret });
    expect(retried.status).toBe(409);
    expect(retried.body.error.code).toBe('TARGET_UNCONFIRMED');
  });

  it('a refused connection sent nothing: a plain platform failure, nothing asked', async () => {
    const content = `Unreachable ${uniq('x')}`;
    const { secret, postId } = await liveXPost(content);
    const options = { fetch: platform.fetch, baseUrl: 'https://127.0.0.1:1', clientId: '', timeoutMs: DEADLINE_MS };
    live.publisher = createTwitterPublisher(options);

    const res = await api('POST', `/posts/${postId}/publish`, { key: secret });

    expect(res.body.data.targets[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('Could not reach 127.0.0.1:1') });
    expect(platform.requests).toHaveLength(0);
    const failed = (await eventsOf(postId)).filter((e) => e.type === 'post.failed');
    expect(failed).toEqual([expect.objectContaining({ data: expect.objectContaining({ error: expect.objectContaining({ code: 'PLATFORM_ERROR' }) }) })]);
  });
});

describe('demo networks that lose the answer after accepting the post', () => {
  it('as their networks do: LinkedIn is asked and found, Bluesky answers the resend with its post, Slack is left to a person', async () => {
    vi.stubEnv('SANDBOX_LATENCY_MS', '5');
    vi.stubEnv('SANDBOX_LOST_ANSWERS_PERCENT', '100');
    const { workspace, secret } = await createWorkspaceWithKey();
    const accounts = await Promise.all(['linkedin', 'bluesky', 'slack'].map((p) => createSandboxConnection(workspace.id, { platform: p })));
    const created = await api('POST', '/posts', { key: secret, body: { content: 'Winter blend', connectionIds: accounts.map((a) => a.id) } });

    await api('POST', `/posts/${created.body.data.id}/publish`, { key: secret });

    const targets = new Map((await db.postTarget.findMany({ where: { postId: created.body.data.id } })).map((t) => [t.platform, t]));
    const receipts = await db.sandboxReceipt.findMany({ where: { connectionId: { in: accounts.map((a) => a.id) } } });
    // Each demo network holds exactly one post: nothing was sent twice blind.
    expect(receipts).toHaveLength(3);
    const receiptOf = (p: string) => receipts.find((r) => r.connectionId === accounts.find((a) => a.platform === p)!.id)!;
    expect(targets.get('linkedin')).toMatchObject({
      status: 'published',
      attempts: 1,
      postedId: receiptOf('linkedin').postedId,
      confirmedAt: expect.any(Date),
    });
    expect(targets.get('bluesky')).toMatchObject({ status: 'published', postedId: receiptOf('bluesky').postedId, confirmedAt: expect.any(Date) });
    expect(targets.get('slack')).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringContaining('Slack cannot be asked') });
    const outcomes = (await eventsOf(created.body.data.id)).filter((e) => e.type === 'post.published' || e.type === 'post.failed');
    expect(outcomes).toHaveLength(3);
  });
});
