// The Bluesky reader against the AppView's documented post views, served by the local HTTPS
// stand-in (as the account's PDS) through the guarded client.
//   https://docs.bsky.app/docs/api/app-bsky-feed-get-posts (uris, at most 25)
//   https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/defs.json (postView counts)
//   https://docs.bsky.app/docs/api/com-atproto-server-refresh-session (refresh)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostedRef, PostMetricsResult } from '../insights';
import { createBlueskyInsightsReader } from './bluesky-insights';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';
const DATA = { did: DID, handle: 'heraldcoffee.bsky.social', pds: 'https://morel.us-east.host.bsky.network' };
const GET_POSTS = '/xrpc/app.bsky.feed.getPosts';
const A = `at://${DID}/app.bsky.feed.post/3lbqn7yyp4k2a`;
const B = `at://${DID}/app.bsky.feed.post/3lbqn8aaab22c`;
const GONE = `at://${DID}/app.bsky.feed.post/3lbqdeleted22`;
const now = new Date('2026-11-27T12:00:00Z');
const posted = (...ids: string[]): PostedRef[] => ids.map((postedId) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') }));
const metricsOf = (r: PostMetricsResult | undefined) => {
  if (!r?.ok) throw new Error(`no metrics: ${JSON.stringify(r)}`);
  return r.metrics;
};
const reader = () => createBlueskyInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl });
const account = () => liveConnection('bluesky', { externalId: DID, accountName: '@heraldcoffee.bsky.social', accessToken: 'access-jwt', platformData: DATA });

describe('Bluesky insights', () => {
  it('hydrates several posts in one getPosts request; a deleted post has a reason of its own', async () => {
    api.on('GET', GET_POSTS, { json: f('get-posts') });
    const out = await reader().readPostMetrics(account(), posted(A, B, GONE), { tokens: new MemoryTokenStore(), now });
    const [req, ...more] = api.calls('GET', GET_POSTS);
    expect(more).toHaveLength(0);
    expect(req!.query.getAll('uris')).toEqual([A, B, GONE]);
    expect(req!.headers.authorization).toBe('Bearer access-jwt');

    expect(metricsOf(out.get(A))).toMatchObject({
      reactions: { value: 57, networkName: 'likeCount' },
      comments: { value: 4, networkName: 'replyCount' },
      shares: { value: 11, networkName: 'repostCount+quoteCount' },
      saves: { value: 6, networkName: 'bookmarkCount' },
      impressions: { value: null, reason: 'Bluesky does not report impressions' },
      reach: { value: null, reason: 'Bluesky does not report reach' },
    });
    const b = metricsOf(out.get(B));
    expect(b.comments).toEqual({ value: 0, reason: null, networkName: 'replyCount' }); // a reading of zero
    expect(b.saves).toEqual({ value: null, reason: expect.stringContaining('no bookmarkCount'), networkName: 'bookmarkCount' });
    expect(out.get(GONE)).toEqual({ ok: false, reason: expect.stringContaining('did not return this post') });
  });

  it('asks at most 25 posts per request', async () => {
    api.on('GET', GET_POSTS, { json: { posts: [] } });
    const uris = Array.from({ length: 26 }, (_, i) => `at://${DID}/app.bsky.feed.post/3lbq${String(i).padStart(9, '0')}`);
    await reader().readPostMetrics(account(), posted(...uris), { tokens: new MemoryTokenStore(), now });
    expect(api.calls('GET', GET_POSTS).map((c) => c.query.getAll('uris').length)).toEqual([25, 1]);
  });

  it('refreshes an expired access JWT with the refresh JWT and reads again', async () => {
    const { connection, tokens } = storedConnection('bluesky', {
      externalId: DID,
      accountName: '@heraldcoffee.bsky.social',
      accessToken: 'old-access',
      refreshToken: 'old-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', GET_POSTS, { status: 400, json: f('error-expired-token') }, { json: f('get-posts') });
    api.on('POST', '/xrpc/com.atproto.server.refreshSession', { json: f('refresh-session') });
    const out = await reader().readPostMetrics({ ...connection, platformData: DATA }, posted(A), { tokens, now });
    expect(api.calls('POST', '/xrpc/com.atproto.server.refreshSession')[0]!.headers.authorization).toBe('Bearer old-refresh');
    expect(api.calls('GET', GET_POSTS)[1]!.headers.authorization).toBe(`Bearer ${f('refresh-session').accessJwt}`);
    expect(tokens.get(connection.id)).toMatchObject({ refreshToken: f('refresh-session').refreshJwt });
    expect(metricsOf(out.get(A)).reactions.value).toBe(57);
  });

  it('fails the connection when the session cannot be refreshed', async () => {
    const { connection, tokens } = storedConnection('bluesky', {
      externalId: DID,
      accountName: '@h',
      accessToken: 'old-access',
      refreshToken: 'spent',
      tokenExpiresAt: new Date(Date.now() - 1000),
    });
    api.on('POST', '/xrpc/com.atproto.server.refreshSession', { status: 400, json: f('error-expired-token') });
    await expect(reader().readPostMetrics({ ...connection, platformData: DATA }, posted(A), { tokens, now })).rejects.toBeInstanceOf(TokenExpiredError);
  });

  it('waits out the rate limit the PDS states in RateLimit-Reset, and fails the connection on one it does not', async () => {
    const reset = () => String(Math.floor(Date.now() / 1000));
    api.on('GET', GET_POSTS, () => ({ status: 429, headers: { 'ratelimit-reset': reset() }, json: f('error-rate-limit') }), { json: f('get-posts') });
    const out = await reader().readPostMetrics(account(), posted(A), { tokens: new MemoryTokenStore(), now });
    expect(api.calls('GET', GET_POSTS)).toHaveLength(2);
    expect(metricsOf(out.get(A)).reactions.value).toBe(57);

    api.on('GET', GET_POSTS, { status: 429, json: f('error-rate-limit') });
    const error = await reader()
      .readPostMetrics(account(), posted(A), { tokens: new MemoryTokenStore(), now })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe('Rate Limit Exceeded');
  });
});
