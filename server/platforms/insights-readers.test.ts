// The post-insights readers against the networks' documented insight answers, served by a
// local HTTPS stand-in through the guarded client: the requests they send (several ids per
// request where the API takes them), the normalised metrics with the networks' own names, and
// null with a reason (never 0) for what a network, a scope or a newer API version does not give.
//   Instagram: https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights
//   Facebook:  https://developers.facebook.com/docs/graph-api/reference/insights
//   X:         https://docs.x.com/x-api/posts/lookup/introduction
//   Threads:   https://developers.facebook.com/docs/threads/insights
//   TikTok:    https://developers.tiktok.com/doc/tiktok-api-v2-video-query
//   LinkedIn:  https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/share-statistics
//              https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/post-statistics
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from './testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from './testing/adapter-tests';
import { createFacebookInsightsReader } from './facebook/facebook-insights';
import { createInstagramInsightsReader } from './instagram/instagram-insights';
import { createLinkedInInsightsReader } from './linkedin/linkedin-insights';
import { sandboxInsightsReader, sandboxPostMetrics } from './sandbox/sandbox-insights';
import { createThreadsInsightsReader } from './threads/threads-insights';
import { createTikTokInsightsReader } from './tiktok/tiktok-insights';
import { createTwitterInsightsReader } from './twitter/twitter-insights';
import { PlatformError, TokenExpiredError } from './publisher';
import type { PostedRef, PostMetricsResult } from './insights';

const api = useFakePlatformApi();
const dir = (network: string) => path.join(import.meta.dirname, network);
const now = new Date('2026-11-27T12:00:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const posted = (...ids: string[]): PostedRef[] => ids.map((postedId) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') }));
const metricsOf = (r: PostMetricsResult | undefined) => {
  if (!r?.ok) throw new Error(`no metrics: ${JSON.stringify(r)}`);
  return r.metrics;
};

describe('Instagram', () => {
  it('reads several media in one request and keeps what Instagram left out null, never 0', async () => {
    api.on('GET', '/v25.0/', { json: fixture(dir('instagram'), 'media-insights-batch') });
    const reader = createInstagramInsightsReader({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` });
    const out = await reader.readPostMetrics(
      liveConnection('instagram', { externalId: '1784', accountName: 'demo', accessToken: 'tok' }),
      posted('17895695668004550', '17912345678901234', '17999999999999999'),
      ctx(),
    );
    const [req] = api.calls('GET', '/v25.0/');
    expect(req!.query.get('ids')).toBe('17895695668004550,17912345678901234,17999999999999999');
    expect(req!.query.get('fields')).toBe('insights.metric(views,reach,likes,comments,shares,saved)');
    expect(req!.headers.authorization).toBe('Bearer tok');

    const first = metricsOf(out.get('17895695668004550'));
    expect(first.views).toEqual({ value: 4210, reason: null, networkName: 'views' });
    expect(first.reactions).toEqual({ value: 187, reason: null, networkName: 'likes' });
    expect(first.saves.value).toBe(31);
    expect(first.shares).toEqual({ value: 0, reason: null, networkName: 'shares' }); // a reading of zero
    expect(first.impressions).toMatchObject({ value: null, reason: expect.stringContaining('v22.0') });
    const second = metricsOf(out.get('17912345678901234'));
    expect(second.reactions.value).toBe(5);
    expect(second.reach).toMatchObject({ value: null, reason: expect.stringContaining('no value'), networkName: 'reach' });
    expect(out.get('17999999999999999')).toEqual({ ok: false, reason: expect.stringContaining('did not return this media') });
  });

  it('turns a metric a newer API version retired into null with Meta’s words, and reads the rest', async () => {
    const batch = fixture(dir('instagram'), 'media-insights-batch');
    api.on('GET', '/v25.0/', (req) =>
      req.query.get('fields')!.includes('shares') ? { status: 400, json: fixture(dir('instagram'), 'error-metric-retired') } : { json: batch },
    );
    api.on('GET', /\/v25\.0\/\d+\/insights/, (req) =>
      req.query.get('metric') === 'shares' ? { status: 400, json: fixture(dir('instagram'), 'error-metric-retired') } : { json: { data: [] } },
    );
    const reader = createInstagramInsightsReader({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` });
    const out = await reader.readPostMetrics(
      liveConnection('instagram', { externalId: '1', accountName: 'demo', accessToken: 'tok' }),
      posted('17895695668004550'),
      ctx(),
    );
    const m = metricsOf(out.get('17895695668004550'));
    expect(m.shares).toEqual({ value: null, reason: expect.stringContaining('no longer returns shares'), networkName: 'shares' });
    expect(m.shares.reason).toContain('(#100) Starting from version v22.0');
    expect(m.views.value).toBe(4210);
    expect(api.calls('GET', '/v25.0/').at(-1)!.query.get('fields')).toBe('insights.metric(views,reach,likes,comments,saved)');
  });

  it('fails the connection on an expired token (the collector records it)', async () => {
    api.on('GET', '/v25.0/', { status: 400, json: fixture(dir('instagram'), 'error-token-expired') });
    const reader = createInstagramInsightsReader({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` });
    await expect(
      reader.readPostMetrics(liveConnection('instagram', { externalId: '1', accountName: 'd', accessToken: 't' }), posted('1'), ctx()),
    ).rejects.toBeInstanceOf(TokenExpiredError);
  });
});

describe('Facebook', () => {
  it('reads counters and insights of several posts at once; an unreported breakdown type is a zero, a missing metric null', async () => {
    api.on('GET', '/v25.0/', { json: fixture(dir('facebook'), 'post-insights-batch') });
    const reader = createFacebookInsightsReader({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` });
    const ids = ['104355642398721_122131234567890123', '104355642398721_122131234567890999'];
    const out = await reader.readPostMetrics(
      liveConnection('facebook', { externalId: '104355642398721', accountName: 'page', accessToken: 'tok' }),
      posted(...ids),
      ctx(),
    );
    const [req] = api.calls('GET', '/v25.0/');
    expect(req!.query.get('ids')).toBe(ids.join(','));
    expect(req!.query.get('fields')).toContain('insights.metric(post_media_view,post_total_media_view_unique,post_clicks_by_type)');
    const a = metricsOf(out.get(ids[0]));
    expect(a).toMatchObject({
      impressions: { value: 2380, networkName: 'post_media_view' },
      reach: { value: 1720, networkName: 'post_total_media_view_unique' },
      reactions: { value: 58 },
      comments: { value: 9 },
      shares: { value: 4 },
      linkClicks: { value: 41, networkName: 'post_clicks_by_type' },
      saves: { value: null, reason: expect.stringContaining('does not report saves') },
    });
    const b = metricsOf(out.get(ids[1]));
    expect(b.impressions).toMatchObject({ value: null, reason: expect.stringContaining('no value') });
    expect(b.shares.value).toBe(0); // Graph leaves `shares` out of a post nobody shared
    expect(b.linkClicks.value).toBe(0);
  });
});

describe('X', () => {
  it('asks up to 100 posts per request, non-public metrics only for the last 30 days, and names a missing post', async () => {
    api.on('GET', '/2/tweets', { json: fixture(dir('twitter'), 'tweets-metrics') });
    const reader = createTwitterInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl });
    const recent = posted('1867012345678901234', '1867012345678900000');
    const old = [{ postedId: '1700000000000000000', publishedAt: new Date('2026-09-01T00:00:00Z') }];
    const out = await reader.readPostMetrics(
      liveConnection('twitter', { externalId: '42', accountName: 'demo', accessToken: 'tok' }),
      [...recent, ...old],
      ctx(),
    );
    const [first, second] = api.calls('GET', '/2/tweets');
    expect(first!.query.get('ids')).toBe('1867012345678901234,1867012345678900000');
    expect(first!.query.get('tweet.fields')).toBe('public_metrics,non_public_metrics');
    expect(second!.query.get('ids')).toBe('1700000000000000000');
    expect(second!.query.get('tweet.fields')).toBe('public_metrics');
    const m = metricsOf(out.get('1867012345678901234'));
    expect(m).toMatchObject({
      impressions: { value: 5120, networkName: 'public_metrics.impression_count' },
      reactions: { value: 96, networkName: 'public_metrics.like_count' },
      comments: { value: 4 },
      shares: { value: 15, networkName: 'public_metrics.retweet_count+quote_count' },
      saves: { value: 7, networkName: 'public_metrics.bookmark_count' },
      linkClicks: { value: 44 },
      reach: { value: null, reason: 'X does not report reach' },
    });
    expect(out.get('1867012345678900000')).toEqual({ ok: false, reason: 'Could not find tweet with ids: [1867012345678900000].' });
  });
});

describe('Threads', () => {
  it('reads one post per request and sums reposts, quotes and shares', async () => {
    api.on('GET', '/v1.0/18050206876707110/insights', { json: fixture(dir('threads'), 'media-insights') });
    const reader = createThreadsInsightsReader({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v1.0` });
    const out = await reader.readPostMetrics(
      liveConnection('threads', { externalId: '7', accountName: 'demo', accessToken: 'tok' }),
      posted('18050206876707110'),
      ctx(),
    );
    expect(api.calls('GET', '/v1.0/18050206876707110/insights')[0]!.query.get('metric')).toBe('views,likes,replies,reposts,quotes,shares');
    expect(metricsOf(out.get('18050206876707110'))).toMatchObject({
      views: { value: 4523 },
      reactions: { value: 187, networkName: 'likes' },
      comments: { value: 42, networkName: 'replies' },
      shares: { value: 36, networkName: 'reposts+quotes+shares' },
      impressions: { value: null, reason: 'Threads reports views, not impressions' },
    });
  });
});

describe('TikTok', () => {
  it('queries up to 20 videos in one POST, and a video not returned or not public yet has a reason', async () => {
    api.on('POST', '/v2/video/query/', { json: fixture(dir('tiktok'), 'video-query') });
    const reader = createTikTokInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl });
    const out = await reader.readPostMetrics(
      liveConnection('tiktok', { externalId: 'open-id', accountName: 'demo', accessToken: 'tok' }),
      posted('7311238001234567890', '7311238009999999999', 'v_pub_url~v2-1.7311'),
      ctx(),
    );
    const [req] = api.calls('POST', '/v2/video/query/');
    expect(req!.query.get('fields')).toBe('id,view_count,like_count,comment_count,share_count');
    expect(req!.json()).toEqual({ filters: { video_ids: ['7311238001234567890', '7311238009999999999'] } });
    expect(metricsOf(out.get('7311238001234567890'))).toMatchObject({
      views: { value: 15320, networkName: 'view_count' },
      reactions: { value: 1204 },
      comments: { value: 87 },
      shares: { value: 65 },
      impressions: { value: null, reason: expect.stringContaining('does not report impressions') },
    });
    expect(out.get('7311238009999999999')).toMatchObject({ ok: false });
    expect(out.get('v_pub_url~v2-1.7311')).toMatchObject({ ok: false, reason: expect.stringContaining('public video id') });
  });

  it('leaves every metric null with the reason when the token lacks video.list', async () => {
    api.on('POST', '/v2/video/query/', { status: 401, json: fixture(dir('tiktok'), 'error-scope-not-authorized') });
    const reader = createTikTokInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl });
    const out = await reader.readPostMetrics(
      liveConnection('tiktok', { externalId: 'o', accountName: 'd', accessToken: 't' }),
      posted('7311238001234567890'),
      ctx(),
    );
    const m = metricsOf(out.get('7311238001234567890'));
    expect(m.views).toEqual({ value: null, reason: expect.stringContaining('video.list'), networkName: null });
    expect(m.reactions.value).toBeNull();
  });
});

describe('LinkedIn', () => {
  it('reads a page’s posts in one share-statistics request', async () => {
    api.on('GET', '/rest/organizationalEntityShareStatistics', { json: fixture(dir('linkedin'), 'share-statistics') });
    const reader = createLinkedInInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, version: '202605' });
    const out = await reader.readPostMetrics(
      liveConnection('linkedin', { externalId: 'urn:li:organization:2414183', accountName: 'page', accessToken: 'tok' }),
      posted('urn:li:share:7262531234567890123', 'urn:li:ugcPost:7262539999999999999'),
      ctx(),
    );
    const [req] = api.calls('GET', '/rest/organizationalEntityShareStatistics');
    expect(req!.query.get('q')).toBe('organizationalEntity');
    expect(req!.query.get('shares')).toBe('List(urn:li:share:7262531234567890123)');
    expect(req!.query.get('ugcPosts')).toBe('List(urn:li:ugcPost:7262539999999999999)');
    expect(req!.headers['linkedin-version']).toBe('202605');
    expect(metricsOf(out.get('urn:li:share:7262531234567890123'))).toMatchObject({
      impressions: { value: 2311, networkName: 'totalShareStatistics.impressionCount' },
      reach: { value: 1432 },
      reactions: { value: 38 },
      comments: { value: 3 },
      shares: { value: 6 },
      linkClicks: { value: 51 },
      saves: { value: null, reason: 'LinkedIn does not report saves' },
    });
    expect(out.get('urn:li:ugcPost:7262539999999999999')).toMatchObject({ ok: false });
  });

  it('reads a member’s post metric by metric, and a token without r_member_postAnalytics leaves them null with that reason', async () => {
    api.on('GET', '/rest/memberCreatorPostAnalytics', { json: fixture(dir('linkedin'), 'member-post-analytics') });
    const reader = createLinkedInInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, version: '202605' });
    const member = liveConnection('linkedin', { externalId: 'abc123', accountName: 'me', accessToken: 'tok' });
    const out = await reader.readPostMetrics(member, posted('urn:li:share:1'), ctx());
    const calls = api.calls('GET', '/rest/memberCreatorPostAnalytics');
    expect(calls.map((c) => c.query.get('queryType'))).toEqual(['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE']);
    expect(calls[0]!.query.get('entity')).toBe('(share:urn:li:share:1)');
    expect(metricsOf(out.get('urn:li:share:1')).impressions).toEqual({ value: 812, reason: null, networkName: 'IMPRESSION' });

    api.on('GET', '/rest/memberCreatorPostAnalytics', { status: 403, json: fixture(dir('linkedin'), 'error-post-analytics-forbidden') });
    const refused = metricsOf((await reader.readPostMetrics(member, posted('urn:li:share:2'), ctx())).get('urn:li:share:2'));
    expect(refused.impressions).toMatchObject({ value: null, reason: expect.stringContaining('r_member_postAnalytics') });
  });

  it('passes a server failure on as a PlatformError', async () => {
    api.on('GET', '/rest/organizationalEntityShareStatistics', { status: 500, json: { message: 'Internal Server Error', status: 500 } });
    const reader = createLinkedInInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl });
    await expect(
      reader.readPostMetrics(
        liveConnection('linkedin', { externalId: 'urn:li:organization:1', accountName: 'p', accessToken: 't' }),
        posted('urn:li:share:1'),
        ctx(),
      ),
    ).rejects.toBeInstanceOf(PlatformError);
  });
});

describe('the sandbox', () => {
  it('grows deterministically after publishing and mirrors what the network does not report', async () => {
    const at = new Date('2026-11-01T10:00:00Z');
    const hour = sandboxPostMetrics('instagram', 'sbx-1', at, new Date(at.getTime() + 3_600_000));
    const day = sandboxPostMetrics('instagram', 'sbx-1', at, new Date(at.getTime() + 24 * 3_600_000));
    const week = sandboxPostMetrics('instagram', 'sbx-1', at, new Date(at.getTime() + 7 * 24 * 3_600_000));
    expect(hour.reach.value!).toBeLessThan(day.reach.value!);
    expect(day.reach.value!).toBeLessThan(week.reach.value!);
    expect(sandboxPostMetrics('instagram', 'sbx-1', at, new Date(at.getTime() + 24 * 3_600_000))).toEqual(day);
    expect(day.impressions).toMatchObject({ value: null, reason: expect.stringContaining('Instagram') });
    const conn = liveConnection('twitter', { externalId: 'x', accountName: 'x', accessToken: null, provider: 'sandbox', sandboxBehavior: 'expired' });
    await expect(sandboxInsightsReader.readPostMetrics(conn, posted('1'), ctx())).rejects.toBeInstanceOf(TokenExpiredError);
  });
});
