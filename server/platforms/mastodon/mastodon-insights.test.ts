// The Mastodon reader against the documented status answers, served by the local HTTPS
// stand-in (as the account's server) through the guarded client.
//   https://docs.joinmastodon.org/methods/statuses/#index (GET /api/v1/statuses?id[]=, 4.3.0)
//   https://docs.joinmastodon.org/methods/statuses/#get (GET /api/v1/statuses/:id; 404 Record not found)
//   https://docs.joinmastodon.org/entities/Status/ (replies_count, reblogs_count, favourites_count)
//   https://docs.joinmastodon.org/api/rate-limits/ (429, X-RateLimit-Reset)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostedRef, PostMetricsResult } from '../insights';
import { createMastodonInsightsReader } from './mastodon-insights';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const A = '113546730183612345';
const B = '113546730183699999';
const GONE = '113546730100000000';
const now = new Date('2026-11-27T12:00:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const posted = (...ids: string[]): PostedRef[] => ids.map((postedId) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') }));
const metricsOf = (r: PostMetricsResult | undefined) => {
  if (!r?.ok) throw new Error(`no metrics: ${JSON.stringify(r)}`);
  return r.metrics;
};
const reader = () => createMastodonInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl });
const account = () =>
  liveConnection('mastodon', {
    externalId: '109348',
    accountName: '@heraldcoffee@mastodon.example',
    accessToken: 'masto-token',
    platformData: { instanceUrl: 'https://mastodon.example' },
  });

describe('Mastodon insights', () => {
  it('reads several statuses in one request on 4.3+; a deleted status has a reason of its own', async () => {
    api.on('GET', '/api/v1/statuses', { json: f('statuses') });
    const out = await reader().readPostMetrics(account(), posted(A, B, GONE), ctx());
    const [req, ...more] = api.calls('GET', '/api/v1/statuses');
    expect(more).toHaveLength(0);
    expect(req!.query.getAll('id[]')).toEqual([A, B, GONE]);
    expect(req!.headers.authorization).toBe('Bearer masto-token');
    expect(metricsOf(out.get(A))).toMatchObject({
      reactions: { value: 41, networkName: 'favourites_count' },
      comments: { value: 3, networkName: 'replies_count' },
      shares: { value: 14, networkName: 'reblogs_count' },
      impressions: { value: null, reason: 'Mastodon does not report impressions' },
      saves: { value: null, reason: expect.stringContaining('private to each user') },
    });
    expect(metricsOf(out.get(B)).comments).toEqual({ value: 0, reason: null, networkName: 'replies_count' });
    expect(out.get(GONE)).toEqual({ ok: false, reason: expect.stringContaining('did not return this status') });
  });

  it('reads one status per request on a server before 4.3, and a 404 is that status’s alone', async () => {
    api.on('GET', '/api/v1/statuses', { status: 404, json: f('error-not-found') });
    api.on('GET', `/api/v1/statuses/${A}`, { json: f('status-counters') });
    api.on('GET', `/api/v1/statuses/${GONE}`, { status: 404, json: f('error-not-found') });
    const out = await reader().readPostMetrics(account(), posted(A, GONE), ctx());
    expect(metricsOf(out.get(A)).reactions.value).toBe(41);
    expect(out.get(GONE)).toMatchObject({ ok: false });
    expect(api.calls('GET', '/api/v1/statuses')).toHaveLength(1);
  });

  it('asks again without the token when the token lacks read:statuses', async () => {
    api.on('GET', '/api/v1/statuses', (req) => (req.headers.authorization ? { status: 403, json: f('error-outside-scopes') } : { json: f('statuses') }));
    const out = await reader().readPostMetrics(account(), posted(A), ctx());
    const calls = api.calls('GET', '/api/v1/statuses');
    expect(calls.map((c) => c.headers.authorization ?? null)).toEqual(['Bearer masto-token', null]);
    expect(metricsOf(out.get(A)).shares.value).toBe(14);
  });

  it('leaves every metric null with the reason when the server reads statuses only with such a token', async () => {
    api.on('GET', '/api/v1/statuses', (req) =>
      req.headers.authorization
        ? { status: 403, json: f('error-outside-scopes') }
        : { status: 401, json: { error: 'This API requires an authenticated user' } },
    );
    const out = await reader().readPostMetrics(account(), posted(A, B), ctx());
    expect(metricsOf(out.get(B)).reactions).toEqual({ value: null, reason: expect.stringContaining('read:statuses'), networkName: null });
  });

  it('fails the connection on a revoked token (Mastodon tokens are not refreshed)', async () => {
    api.on('GET', '/api/v1/statuses', { status: 401, json: f('error-token-invalid') });
    await expect(reader().readPostMetrics(account(), posted(A), ctx())).rejects.toBeInstanceOf(TokenExpiredError);
  });

  it('waits out the rate limit stated in X-RateLimit-Reset, and fails the connection on one it does not state', async () => {
    api.on('GET', '/api/v1/statuses', () => ({ status: 429, headers: { 'x-ratelimit-reset': new Date().toISOString() }, json: f('error-rate-limit') }), {
      json: f('statuses'),
    });
    const out = await reader().readPostMetrics(account(), posted(A), ctx());
    expect(metricsOf(out.get(A)).reactions.value).toBe(41);

    api.on('GET', '/api/v1/statuses', { status: 429, json: f('error-rate-limit') });
    const error = await reader()
      .readPostMetrics(account(), posted(A), ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe('Too many requests');
  });
});
