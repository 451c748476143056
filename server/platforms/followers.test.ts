// Follower counts, one reader per network that reports them, against a local HTTPS stand-in
// answering each API's documented response shape:
//   Instagram  https://developers.facebook.com/docs/instagram-platform/reference/instagram-user (followers_count)
//   Facebook   https://developers.facebook.com/docs/graph-api/reference/page/ (followers_count)
//   Threads    https://developers.facebook.com/docs/threads/insights#user-insights (followers_count, total_value)
//   X          https://docs.x.com/x-api/users/user-lookup-me (public_metrics.followers_count)
//   TikTok     https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info (follower_count, user.info.stats)
//   YouTube    https://developers.google.com/youtube/v3/docs/channels (statistics.subscriberCount, hiddenSubscriberCount)
//   Pinterest  https://developers.pinterest.com/docs/api/v5/user_account-get (follower_count)
//   Reddit     https://www.reddit.com/dev/api/#GET_api_v1_me (subreddit.subscribers)
//   Bluesky    https://docs.bsky.app/docs/api/app-bsky-actor-get-profile (followersCount)
//   Mastodon   https://docs.joinmastodon.org/methods/accounts/#verify_credentials (followers_count)
//   Farcaster  https://docs.neynar.com/reference/fetch-bulk-users (users[].follower_count, through Neynar)
import { describe, expect, it } from 'vitest';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from './testing/adapter-tests';
import { TokenExpiredError } from './publisher';
import { FOLLOWERS_NOT_REPORTED, type PostMetricsReader } from './insights';
import { createInstagramInsightsReader } from './instagram/instagram-insights';
import { createInstagramLoginInsightsReader } from './instagram_login/instagram-login';
import { createFacebookInsightsReader } from './facebook/facebook-insights';
import { createThreadsInsightsReader } from './threads/threads-insights';
import { createTwitterInsightsReader } from './twitter/twitter-insights';
import { createTikTokInsightsReader } from './tiktok/tiktok-insights';
import { createYouTubeInsightsReader } from './youtube/youtube-insights';
import { createPinterestInsightsReader } from './pinterest/pinterest-insights';
import { createRedditInsightsReader } from './reddit/reddit-insights';
import { createBlueskyInsightsReader } from './bluesky/bluesky-insights';
import { createMastodonInsightsReader } from './mastodon/mastodon-insights';
import { platformsWithFollowers, platformsWithReaders } from './insights-readers';
import { sandboxFollowers, sandboxInsightsReader } from './sandbox/sandbox-insights';
import type { Platform } from '@/server/shared/platforms';
import { createWordpressComInsightsReader } from './wordpress_com/wordpress-com';
import { createVkInsightsReader } from './vk/vk-insights';
import { createFarcasterInsightsReader } from './farcaster/farcaster-insights';

const api = useFakePlatformApi();
const now = new Date('2026-11-27T12:00:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';

interface Case {
  platform: Platform;
  reader: () => PostMetricsReader;
  externalId: string;
  platformData?: Record<string, unknown>;
  method?: string;
  path: string | RegExp;
  answer: unknown;
  value: number;
  networkName: string;
  /** What the request must carry (query values). */
  query?: Record<string, string>;
  /** How the request is authorized, when not by the account's token (Neynar: the deployment's key; the account's signer never leaves Herald for a read). */
  headers?: Record<string, string>;
}

const cases: Case[] = [
  {
    platform: 'instagram',
    reader: () => createInstagramInsightsReader({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` }),
    externalId: '17841405822304914',
    path: '/v25.0/17841405822304914',
    answer: { followers_count: 12_840, id: '17841405822304914' },
    value: 12_840,
    networkName: 'followers_count',
    query: { fields: 'followers_count' },
  },
  {
    // GET graph.instagram.com/<IG_ID>?fields=followers_count (https://developers.facebook.com/docs/instagram-platform/reference/instagram-user)
    platform: 'instagram_login',
    reader: () => createInstagramLoginInsightsReader({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` }),
    externalId: '17841400008460056',
    path: '/v25.0/17841400008460056',
    answer: { followers_count: 2_410, id: '17841400008460056' },
    value: 2_410,
    networkName: 'followers_count',
    query: { fields: 'followers_count' },
  },
  {
    platform: 'facebook',
    reader: () => createFacebookInsightsReader({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` }),
    externalId: '104938275512345',
    path: '/v25.0/104938275512345',
    answer: { followers_count: 3_201, id: '104938275512345' },
    value: 3_201,
    networkName: 'followers_count',
    query: { fields: 'followers_count' },
  },
  {
    platform: 'threads',
    reader: () => createThreadsInsightsReader({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v1.0` }),
    externalId: '25025320703715',
    path: '/v1.0/25025320703715/threads_insights',
    answer: {
      data: [
        {
          name: 'followers_count',
          period: 'day',
          title: 'followers_count',
          description: 'The number of followers.',
          total_value: { value: 842 },
          id: '25025320703715/insights/followers_count/day',
        },
      ],
    },
    value: 842,
    networkName: 'followers_count',
    query: { metric: 'followers_count' },
  },
  {
    platform: 'twitter',
    reader: () => createTwitterInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl }),
    externalId: '2244994945',
    path: '/2/users/me',
    answer: {
      data: {
        id: '2244994945',
        name: 'Herald Coffee',
        username: 'heraldcoffee',
        public_metrics: { followers_count: 5_020, following_count: 120, tweet_count: 880, listed_count: 9, like_count: 300 },
      },
    },
    value: 5_020,
    networkName: 'public_metrics.followers_count',
    query: { 'user.fields': 'public_metrics' },
  },
  {
    platform: 'tiktok',
    reader: () => createTikTokInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, clientKey: '', clientSecret: '' } as never),
    externalId: '-000F1a2b3c',
    path: '/v2/user/info/',
    answer: { data: { user: { follower_count: 27_400 } }, error: { code: 'ok', message: '', log_id: '20261127120000' } },
    value: 27_400,
    networkName: 'follower_count',
    query: { fields: 'follower_count' },
  },
  {
    platform: 'youtube',
    reader: () => createYouTubeInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '' }),
    externalId: 'UC_x5XG1OV2P6uZZ5FSM9Ttw',
    path: '/youtube/v3/channels',
    answer: {
      kind: 'youtube#channelListResponse',
      items: [
        {
          kind: 'youtube#channel',
          id: 'UC_x5XG1OV2P6uZZ5FSM9Ttw',
          statistics: { viewCount: '4120000', subscriberCount: '19300', hiddenSubscriberCount: false, videoCount: '212' },
        },
      ],
    },
    value: 19_300,
    networkName: 'subscriberCount',
    query: { part: 'statistics', mine: 'true' },
  },
  {
    platform: 'pinterest',
    reader: () => createPinterestInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '' }),
    externalId: 'heraldcoffee',
    path: '/v5/user_account',
    answer: { account_type: 'BUSINESS', username: 'heraldcoffee', follower_count: 1_450, following_count: 30, pin_count: 96, monthly_views: 41_000 },
    value: 1_450,
    networkName: 'follower_count',
  },
  {
    platform: 'reddit',
    reader: () => createRedditInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl }),
    externalId: 't2_1w72',
    path: '/api/v1/me',
    answer: { name: 'heraldcoffee', id: '1w72', link_karma: 410, subreddit: { display_name: 'u_heraldcoffee', subscribers: 318, subreddit_type: 'user' } },
    value: 318,
    networkName: 'subreddit.subscribers',
  },
  {
    platform: 'bluesky',
    reader: () => createBlueskyInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl }),
    externalId: DID,
    platformData: { did: DID, handle: 'heraldcoffee.bsky.social', pds: 'https://morel.us-east.host.bsky.network' },
    path: '/xrpc/app.bsky.actor.getProfile',
    answer: { did: DID, handle: 'heraldcoffee.bsky.social', followersCount: 2_210, followsCount: 140, postsCount: 512 },
    value: 2_210,
    networkName: 'followersCount',
    query: { actor: DID },
  },
  {
    platform: 'vk',
    reader: () => createVkInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl }),
    externalId: '100',
    platformData: { ownerId: 100 },
    method: 'POST',
    path: '/users.get',
    answer: { response: [{ id: 100, first_name: 'Anna', last_name: 'Petrova', followers_count: 264 }] },
    value: 264,
    networkName: 'followers_count',
  },
  {
    platform: 'farcaster',
    reader: () => createFarcasterInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, apiKey: 'neynar-key' }),
    externalId: '194',
    platformData: { fid: 194, username: 'heraldcoffee' },
    path: '/v2/farcaster/user/bulk',
    answer: { users: [{ object: 'user', fid: 194, username: 'heraldcoffee', display_name: 'Herald Coffee', follower_count: 1280, following_count: 310 }] },
    value: 1280,
    networkName: 'follower_count',
    query: { fids: '194' },
    headers: { 'x-api-key': 'neynar-key' },
  },
  {
    platform: 'mastodon',
    reader: () => createMastodonInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl }),
    externalId: '109348',
    platformData: { instanceUrl: 'https://mastodon.example' },
    path: '/api/v1/accounts/verify_credentials',
    answer: { id: '109348', username: 'heraldcoffee', acct: 'heraldcoffee', followers_count: 967, following_count: 40, statuses_count: 301 },
    value: 967,
    networkName: 'followers_count',
  },
  {
    // https://developer.wordpress.com/docs/api/1.1/get/sites/%24site/ (the site object's subscribers_count)
    platform: 'wordpress_com',
    reader: () => createWordpressComInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl }),
    externalId: '211489302',
    platformData: { siteId: '211489302', siteUrl: 'https://news.heraldcoffee.example' },
    path: '/rest/v1.1/sites/211489302',
    answer: { ID: 211489302, subscribers_count: 1_384 },
    value: 1_384,
    networkName: 'subscribers_count',
    query: { fields: 'ID,subscribers_count' },
  },
];

const connectionOf = (c: Case) =>
  liveConnection(c.platform, { externalId: c.externalId, accountName: '@heraldcoffee', accessToken: 'tok-123', platformData: c.platformData ?? {} });

describe('follower counts', () => {
  it('every network with a reader either reads followers or says why not', () => {
    for (const platform of platformsWithReaders()) {
      expect(platformsWithFollowers().includes(platform) !== Boolean(FOLLOWERS_NOT_REPORTED[platform]), platform).toBe(true);
    }
    expect(cases.map((c) => c.platform).sort()).toEqual([...platformsWithFollowers()].sort());
  });

  for (const c of cases) {
    it(`${c.platform}: reads the count under the network's own name, with the account's token`, async () => {
      api.on(c.method ?? 'GET', c.path, { json: c.answer });
      const count = await c.reader().readFollowers!(connectionOf(c), ctx());
      expect(count).toEqual({ value: c.value, reason: null, networkName: c.networkName });
      const [req, ...more] = api.calls(c.method ?? 'GET', c.path);
      expect(more).toHaveLength(0);
      if (c.headers) for (const [k, v] of Object.entries(c.headers)) expect(req!.headers[k], k).toBe(v);
      else expect(req!.headers.authorization?.toLowerCase()).toBe('bearer tok-123');
      for (const [k, v] of Object.entries(c.query ?? {})) expect(req!.query.get(k), k).toBe(v);
    });

    it(`${c.platform}: a count missing from the answer is null with a reason, never 0`, async () => {
      api.on(c.method ?? 'GET', c.path, { json: c.platform === 'tiktok' ? { data: { user: {} }, error: { code: 'ok', message: '' } } : {} });
      const count = await c.reader().readFollowers!(connectionOf(c), ctx());
      expect(count.value).toBeNull();
      expect(count.reason).toMatch(/\w/);
    });
  }

  it('a refused token is thrown as the network said it (the collector records it and moves on)', async () => {
    api.on('GET', '/2/users/me', { status: 401, json: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } });
    const x = cases.find((c) => c.platform === 'twitter')!;
    await expect(x.reader().readFollowers!(connectionOf(x), ctx())).rejects.toBeInstanceOf(TokenExpiredError);
    api.on('GET', '/v5/user_account', { status: 500, json: { code: 1, message: 'Something went wrong on our end.' } });
    const pin = cases.find((c) => c.platform === 'pinterest')!;
    await expect(pin.reader().readFollowers!(connectionOf(pin), ctx())).rejects.toMatchObject({
      name: 'PlatformError',
      message: 'Something went wrong on our end.',
    });
  });

  it('a hidden YouTube subscriber count and a TikTok token without user.info.stats are null with why', async () => {
    api.on('GET', '/youtube/v3/channels', { json: { items: [{ id: 'UC1', statistics: { subscriberCount: '0', hiddenSubscriberCount: true } }] } });
    const yt = cases.find((c) => c.platform === 'youtube')!;
    expect(await yt.reader().readFollowers!(connectionOf(yt), ctx())).toEqual({
      value: null,
      reason: expect.stringContaining('hides'),
      networkName: 'subscriberCount',
    });
    api.on('GET', '/v2/user/info/', {
      json: { data: {}, error: { code: 'scope_not_authorized', message: 'The user did not authorize the scope required for completing this request.' } },
    });
    const tt = cases.find((c) => c.platform === 'tiktok')!;
    expect((await tt.reader().readFollowers!(connectionOf(tt), ctx())).reason).toContain('user.info.stats');
  });

  it('the sandbox: the same count for the same account and day, growing over days; null with the live reason where the network has none', () => {
    const a = sandboxFollowers('instagram', 'sbx-1', now);
    expect(a).toEqual(sandboxFollowers('instagram', 'sbx-1', new Date(now.getTime() + 3_600_000)));
    expect(sandboxFollowers('instagram', 'sbx-1', new Date(now.getTime() + 30 * 86_400_000)).value!).toBeGreaterThan(a.value!);
    expect(sandboxFollowers('slack', 'sbx-1', now)).toEqual({ value: null, reason: FOLLOWERS_NOT_REPORTED.slack, networkName: null });
    expect(sandboxInsightsReader.readFollowers).toBeDefined();
  });
});
