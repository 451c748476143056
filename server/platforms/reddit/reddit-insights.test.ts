// The Reddit reader against the documented /api/info listing, served by the local HTTPS
// stand-in through the guarded client.
//   https://www.reddit.com/dev/api#GET_api_info (id: up to 100 fullnames; scope read)
//   https://github.com/reddit-archive/reddit/wiki/JSON (the t3 link: ups, num_comments, num_crossposts)
//   https://github.com/reddit-archive/reddit/wiki/OAuth2 (refresh; 401 for a refused token)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError } from '../publisher';
import type { PostedRef, PostMetricsResult } from '../insights';
import { createRedditInsightsReader } from './reddit-insights';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const now = new Date('2026-11-27T12:00:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const posted = (...ids: string[]): PostedRef[] => ids.map((postedId) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') }));
const metricsOf = (r: PostMetricsResult | undefined) => {
  if (!r?.ok) throw new Error(`no metrics: ${JSON.stringify(r)}`);
  return r.metrics;
};
const app = () => ({ clientId: 'p-jcoLKBynTLew', clientSecret: 'reddit-secret', tokenUrl: `${api.baseUrl}/api/v1/access_token` });
const reader = (extra = {}) => createRedditInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, ...extra });
const account = () => liveConnection('reddit', { externalId: 't2_abc', accountName: 'u/heraldcoffee', accessToken: 'reddit-token' });

describe('Reddit insights', () => {
  it('reads several posts in one /api/info request; deleted, removed or id-less posts have reasons of their own', async () => {
    api.on('GET', '/api/info', { json: f('info-posts') });
    const out = await reader().readPostMetrics(account(), posted('t3_1h2x9zz', 't3_1h2aaaa', 't3_1h2dele', 't3_1h2gone', 'Coffee:Our winter beans'), ctx());
    const [req, ...more] = api.calls('GET', '/api/info');
    expect(more).toHaveLength(0);
    expect(req!.query.get('id')).toBe('t3_1h2x9zz,t3_1h2aaaa,t3_1h2dele,t3_1h2gone');
    expect(req!.headers.authorization).toBe('bearer reddit-token');
    expect(req!.headers['user-agent']).toBeTruthy();
    expect(metricsOf(out.get('t3_1h2x9zz'))).toMatchObject({
      reactions: { value: 128, networkName: 'ups' },
      comments: { value: 17, networkName: 'num_comments' },
      shares: { value: 2, networkName: 'num_crossposts' },
      views: { value: null, reason: expect.stringContaining('view_count') },
      saves: { value: null, reason: expect.stringContaining('saved a post') },
    });
    expect(metricsOf(out.get('t3_1h2aaaa')).comments).toEqual({ value: 0, reason: null, networkName: 'num_comments' });
    expect(out.get('t3_1h2dele')).toEqual({ ok: false, reason: 'Reddit reports this post removed (removed_by_category: deleted)' });
    expect(out.get('t3_1h2gone')).toEqual({ ok: false, reason: expect.stringContaining('did not return this post') });
    expect(out.get('Coffee:Our winter beans')).toEqual({ ok: false, reason: expect.stringContaining('no post id') });
  });

  it('asks at most 100 fullnames per request', async () => {
    api.on('GET', '/api/info', { json: { kind: 'Listing', data: { children: [] } } });
    const ids = Array.from({ length: 101 }, (_, i) => `t3_${i.toString(36).padStart(6, '0')}`);
    await reader().readPostMetrics(account(), posted(...ids), ctx());
    expect(api.calls('GET', '/api/info').map((c) => c.query.get('id')!.split(',').length)).toEqual([100, 1]);
  });

  it('leaves every metric null with the reason when the token lacks the read scope', async () => {
    api.on('GET', '/api/info', { status: 403, json: f('error-forbidden') });
    const out = await reader().readPostMetrics(account(), posted('t3_1h2x9zz'), ctx());
    expect(metricsOf(out.get('t3_1h2x9zz')).reactions).toEqual({ value: null, reason: expect.stringContaining('read scope'), networkName: null });
  });

  it('refreshes a token Reddit refuses and reads again', async () => {
    const { connection, tokens } = storedConnection('reddit', {
      externalId: 't2_abc',
      accountName: 'u/heraldcoffee',
      accessToken: 'stale',
      refreshToken: '12345-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', '/api/info', { status: 401, json: f('error-unauthorized') }, { json: f('info-posts') });
    api.on('POST', '/api/v1/access_token', { json: f('token-refreshed') });
    const out = await reader(app()).readPostMetrics(connection, posted('t3_1h2x9zz'), { tokens, now });
    expect(api.calls('POST', '/api/v1/access_token')[0]!.form().get('refresh_token')).toBe('12345-refresh');
    expect(api.calls('GET', '/api/info')[1]!.headers.authorization).toBe('bearer eyJhbGciOiJSUzI1NiIs-refreshed');
    expect(metricsOf(out.get('t3_1h2x9zz')).reactions.value).toBe(128);
  });

  it('waits out the reset Reddit states, and fails the connection on a 429 it cannot wait out', async () => {
    api.on('GET', '/api/info', { status: 429, headers: { 'x-ratelimit-reset': '0' }, json: f('error-rate-limited') }, { json: f('info-posts') });
    const out = await reader().readPostMetrics(account(), posted('t3_1h2x9zz'), ctx());
    expect(api.calls('GET', '/api/info')).toHaveLength(2);
    expect(metricsOf(out.get('t3_1h2x9zz')).comments.value).toBe(17);

    api.on('GET', '/api/info', { status: 429, headers: { 'x-ratelimit-reset': '600' }, json: f('error-rate-limited') });
    const error = await reader()
      .readPostMetrics(account(), posted('t3_1h2x9zz'), ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe('Too Many Requests');
  });
});
