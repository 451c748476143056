// The YouTube reader against the Data API's documented answers, served by the local HTTPS
// stand-in through the guarded client.
//   https://developers.google.com/youtube/v3/docs/videos/list (part=statistics, id up to 50)
//   https://developers.google.com/youtube/v3/docs/videos#statistics (viewCount, likeCount, commentCount as strings)
//   https://developers.google.com/youtube/v3/docs/errors (insufficientPermissions, quotaExceeded, rateLimitExceeded)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostedRef, PostMetricsResult } from '../insights';
import { createYouTubeInsightsReader } from './youtube-insights';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const now = new Date('2026-11-27T12:00:00Z');
const posted = (...ids: string[]): PostedRef[] => ids.map((postedId) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') }));
const metricsOf = (r: PostMetricsResult | undefined) => {
  if (!r?.ok) throw new Error(`no metrics: ${JSON.stringify(r)}`);
  return r.metrics;
};
const reader = (extra: Parameters<typeof createYouTubeInsightsReader>[0] = {}) =>
  createYouTubeInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra });
const channel = () => liveConnection('youtube', { externalId: 'UC_x5XG1OV2P6uZZ5FSM9Ttw', accountName: '@heraldcoffee', accessToken: 'ya29.tok' });

describe('YouTube insights', () => {
  it('reads several videos in one videos.list request; a deleted video has a reason of its own', async () => {
    api.on('GET', '/youtube/v3/videos', { json: f('videos-statistics') });
    const out = await reader().readPostMetrics(channel(), posted('dQw4w9WgXcQ', 'o-YBDTqX_ZU', 'gone1234567'), { tokens: new MemoryTokenStore(), now });

    const [req, ...more] = api.calls('GET', '/youtube/v3/videos');
    expect(more).toHaveLength(0);
    expect(req!.query.get('part')).toBe('statistics');
    expect(req!.query.get('id')).toBe('dQw4w9WgXcQ,o-YBDTqX_ZU,gone1234567');
    expect(req!.headers.authorization).toBe('Bearer ya29.tok');

    const first = metricsOf(out.get('dQw4w9WgXcQ'));
    expect(first.views).toEqual({ value: 4210, reason: null, networkName: 'statistics.viewCount' });
    expect(first.reactions).toEqual({ value: 187, reason: null, networkName: 'statistics.likeCount' });
    expect(first.comments).toEqual({ value: 23, reason: null, networkName: 'statistics.commentCount' });
    expect(first.videoWatchSeconds).toMatchObject({ value: null, reason: expect.stringContaining('YouTube Analytics API') });
    expect(first.shares).toMatchObject({ value: null, reason: expect.stringContaining('YouTube Analytics API') });
    expect(first.saves).toMatchObject({ value: null, reason: expect.stringContaining('favoriteCount is deprecated') });
    expect(first.impressions.value).toBeNull();
    expect(first.reach).toEqual({ value: null, reason: 'YouTube does not report reach', networkName: null });

    const second = metricsOf(out.get('o-YBDTqX_ZU'));
    expect(second.comments.value).toBe(0); // a reading of zero
    expect(second.reactions).toEqual({ value: null, reason: expect.stringContaining('hidden by the owner'), networkName: 'statistics.likeCount' });
    expect(out.get('gone1234567')).toEqual({ ok: false, reason: expect.stringContaining('did not return this video') });
  });

  it('asks at most 50 ids per request', async () => {
    api.on('GET', '/youtube/v3/videos', { json: { kind: 'youtube#videoListResponse', items: [] } });
    const ids = Array.from({ length: 51 }, (_, i) => `vid${String(i).padStart(8, '0')}`);
    const out = await reader().readPostMetrics(channel(), posted(...ids), { tokens: new MemoryTokenStore(), now });
    const calls = api.calls('GET', '/youtube/v3/videos');
    expect(calls.map((c) => c.query.get('id')!.split(',').length)).toEqual([50, 1]);
    expect(out.size).toBe(51);
  });

  it('leaves every metric null with the reason when the token lacks youtube.readonly', async () => {
    api.on('GET', '/youtube/v3/videos', { status: 403, json: f('error-insufficient-permissions') });
    const out = await reader().readPostMetrics(channel(), posted('dQw4w9WgXcQ'), { tokens: new MemoryTokenStore(), now });
    const m = metricsOf(out.get('dQw4w9WgXcQ'));
    expect(m.views).toEqual({ value: null, reason: expect.stringContaining('youtube.readonly'), networkName: null });
    expect(m.views.reason).toContain('Request had insufficient authentication scopes.');
  });

  it('refreshes an expired token at Google’s token endpoint and reads with the new one', async () => {
    const { connection, tokens } = storedConnection('youtube', {
      externalId: 'UC_x',
      accountName: '@h',
      accessToken: 'ya29.old',
      refreshToken: '1//0gLrefresh',
      tokenExpiresAt: new Date(Date.now() - 1000),
    });
    api.on('POST', '/token', { json: f('token-refreshed') });
    api.on('GET', '/youtube/v3/videos', { json: f('videos-statistics') });
    const google = { clientId: 'google-client.apps.googleusercontent.com', clientSecret: 'google-secret', tokenUrl: `${api.baseUrl}/token` };
    const out = await reader(google).readPostMetrics(connection, posted('dQw4w9WgXcQ'), { tokens, now });
    expect(api.calls('GET', '/youtube/v3/videos')[0]!.headers.authorization).toBe('Bearer ya29.a0AfH6SMBx-refreshed');
    expect(tokens.get(connection.id)).toMatchObject({ accessToken: 'ya29.a0AfH6SMBx-refreshed', refreshToken: '1//0gLrefresh' });
    expect(metricsOf(out.get('dQw4w9WgXcQ')).views.value).toBe(4210);
  });

  it('fails the connection with TokenExpiredError when Google no longer accepts the token', async () => {
    api.on('GET', '/youtube/v3/videos', { status: 401, json: f('error-invalid-credentials') });
    await expect(reader().readPostMetrics(channel(), posted('dQw4w9WgXcQ'), { tokens: new MemoryTokenStore(), now })).rejects.toBeInstanceOf(TokenExpiredError);
  });

  it('waits out a stated rate limit, and fails the connection on an exhausted quota', async () => {
    api.on('GET', '/youtube/v3/videos', { status: 429, headers: { 'retry-after': '0' }, json: f('error-rate-limit') }, { json: f('videos-statistics') });
    const out = await reader().readPostMetrics(channel(), posted('dQw4w9WgXcQ'), { tokens: new MemoryTokenStore(), now });
    expect(api.calls('GET', '/youtube/v3/videos')).toHaveLength(2);
    expect(metricsOf(out.get('dQw4w9WgXcQ')).views.value).toBe(4210);

    api.on('GET', '/youtube/v3/videos', { status: 403, json: f('error-quota-exceeded') });
    const error = await reader()
      .readPostMetrics(channel(), posted('dQw4w9WgXcQ'), { tokens: new MemoryTokenStore(), now })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect((error as PlatformError).message).toContain('exceeded your');
  });
});
