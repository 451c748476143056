// The Google Business Profile reader against the documented local post insights, served by the
// local HTTPS stand-in through the guarded client.
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/reportInsights
//   https://developers.google.com/identity/protocols/oauth2/web-server#offline (refresh)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostedRef, PostMetricsResult } from '../insights';
import { createGoogleBusinessInsightsReader } from './google-business-insights';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const LOCATION = 'accounts/106324317373465838493/locations/8143792401563712436';
const PATH = `/v4/${LOCATION}/localPosts:reportInsights`;
const A = `${LOCATION}/localPosts/3141592653589793238`;
const B = `${LOCATION}/localPosts/2718281828459045235`;
const GONE = `${LOCATION}/localPosts/1414213562373095048`;
const now = new Date('2026-11-27T12:00:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const posted = (...ids: string[]): PostedRef[] => ids.map((postedId) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') }));
const metricsOf = (r: PostMetricsResult | undefined) => {
  if (!r?.ok) throw new Error(`no metrics: ${JSON.stringify(r)}`);
  return r.metrics;
};
const reader = (extra = {}) => createGoogleBusinessInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra });
const location = () => liveConnection('google_business', { externalId: LOCATION, accountName: 'Herald Coffee Soho', accessToken: 'ya29.current' });

describe('Google Business Profile insights', () => {
  it('reports several local posts in one request: search views and call-to-action clicks', async () => {
    api.on('POST', PATH, { json: f('local-post-insights') });
    const out = await reader().readPostMetrics(location(), posted(A, B, GONE, 'accounts/1/locations/2/localPosts/3'), ctx());
    const [req, ...more] = api.calls('POST', PATH);
    expect(more).toHaveLength(0);
    expect(req!.headers.authorization).toBe('Bearer ya29.current');
    expect(req!.json()).toEqual({
      localPostNames: [A, B, GONE],
      basicRequest: {
        metricRequests: [{ metric: 'LOCAL_POST_VIEWS_SEARCH' }, { metric: 'LOCAL_POST_ACTIONS_CALL_TO_ACTION' }],
        timeRange: { startTime: '2026-11-25T09:00:00.000Z', endTime: '2026-11-27T12:00:00.000Z' },
      },
    });
    expect(metricsOf(out.get(A))).toMatchObject({
      impressions: { value: 812, networkName: 'LOCAL_POST_VIEWS_SEARCH' },
      linkClicks: { value: 37, networkName: 'LOCAL_POST_ACTIONS_CALL_TO_ACTION' },
      reactions: { value: null, reason: 'Google Business Profile posts take no reactions' },
    });
    expect(metricsOf(out.get(B)).linkClicks).toEqual({
      value: null,
      reason: expect.stringContaining('no value'),
      networkName: 'LOCAL_POST_ACTIONS_CALL_TO_ACTION',
    });
    expect(out.get(GONE)).toEqual({ ok: false, reason: expect.stringContaining('did not return this local post') });
    expect(out.get('accounts/1/locations/2/localPosts/3')).toMatchObject({ ok: false });
  });

  it('leaves every metric null with Google’s words if the method has been retired', async () => {
    api.on('POST', PATH, { status: 404, json: f('error-method-not-found') });
    const m = metricsOf((await reader().readPostMetrics(location(), posted(A), ctx())).get(A));
    expect(m.impressions).toEqual({ value: null, reason: expect.stringContaining('no longer answers local post insights'), networkName: null });
    expect(m.impressions.reason).toContain('Method not found.');
  });

  it('refreshes an expired token and fails the connection when Google refuses the grant', async () => {
    const account = (refreshToken: string) =>
      storedConnection('google_business', {
        externalId: LOCATION,
        accountName: 'Soho',
        accessToken: 'ya29.old',
        refreshToken,
        tokenExpiresAt: new Date(Date.now() - 1000),
      });
    const google = { clientId: 'google-client.apps.googleusercontent.com', clientSecret: 'google-secret', tokenUrl: `${api.baseUrl}/token` };
    api.on('POST', '/token', { json: f('token-refreshed') });
    api.on('POST', PATH, { json: f('local-post-insights') });
    const ok = account('1//0gLrefresh');
    const out = await reader(google).readPostMetrics(ok.connection, posted(A), { tokens: ok.tokens, now });
    expect(api.calls('POST', PATH)[0]!.headers.authorization).toBe(`Bearer ${f('token-refreshed').access_token}`);
    expect(metricsOf(out.get(A)).impressions.value).toBe(812);

    api.on('POST', '/token', { status: 400, json: f('token-refresh-refused') });
    const revoked = account('1//0gLrevoked');
    await expect(reader(google).readPostMetrics(revoked.connection, posted(A), { tokens: revoked.tokens, now })).rejects.toBeInstanceOf(TokenExpiredError);
  });

  it('fails the connection on a rate limit it cannot wait out, and waits out a stated one', async () => {
    api.on('POST', PATH, { status: 429, json: f('error-rate-limit') });
    const error = await reader()
      .readPostMetrics(location(), posted(A), ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toContain('Quota exceeded');

    api.on('POST', PATH, { status: 429, headers: { 'retry-after': '0' }, json: f('error-rate-limit') }, { json: f('local-post-insights') });
    expect(metricsOf((await reader().readPostMetrics(location(), posted(A), ctx())).get(A)).linkClicks.value).toBe(37);
  });
});
