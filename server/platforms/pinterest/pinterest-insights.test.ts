// The Pinterest reader against the documented Pin analytics answers, served by the local HTTPS
// stand-in through the guarded client.
//   https://developers.pinterest.com/docs/api/v5/pins-analytics (GET /v5/pins/{pin_id}/analytics:
//     start_date, end_date (90 days back at most), metric_types; summary_metrics and daily_metrics under "all")
//   https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/ (refresh)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostMetricsResult } from '../insights';
import { createPinterestInsightsReader } from './pinterest-insights';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const now = new Date('2026-11-27T12:00:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const pin = (postedId: string, publishedAt = new Date('2026-11-25T09:00:00Z')) => ({ postedId, publishedAt });
const metricsOf = (r: PostMetricsResult | undefined) => {
  if (!r?.ok) throw new Error(`no metrics: ${JSON.stringify(r)}`);
  return r.metrics;
};
const reader = (extra = {}) => createPinterestInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra });
const account = () => liveConnection('pinterest', { externalId: 'heraldcoffee', accountName: 'heraldcoffee', accessToken: 'pina_tok' });
const path = (id: string) => `/v5/pins/${id}/analytics`;

describe('Pinterest insights', () => {
  it('reads each Pin’s summary from its publishing day to today and maps saves, outbound clicks, impressions and video views', async () => {
    api.on('GET', path('813744226420795884'), { json: f('pin-analytics') });
    api.on('GET', path('813744226420795999'), { json: f('pin-analytics-image') });
    api.on('GET', path('813744226420700000'), { status: 404, json: f('error-pin-not-found') });
    const out = await reader().readPostMetrics(
      account(),
      [pin('813744226420795884'), pin('813744226420795999', new Date('2026-06-01T00:00:00Z')), pin('813744226420700000')],
      ctx(),
    );
    const [req] = api.calls('GET', path('813744226420795884'));
    expect(req!.query.get('start_date')).toBe('2026-11-25');
    expect(req!.query.get('end_date')).toBe('2026-11-27');
    expect(req!.query.get('metric_types')).toBe('IMPRESSION,SAVE,OUTBOUND_CLICK,VIDEO_MRC_VIEW');
    expect(req!.headers.authorization).toBe('Bearer pina_tok');
    expect(api.calls('GET', path('813744226420795999'))[0]!.query.get('start_date')).toBe('2026-08-30'); // 89 days back at most

    expect(metricsOf(out.get('813744226420795884'))).toMatchObject({
      impressions: { value: 2270, networkName: 'IMPRESSION' },
      saves: { value: 9, networkName: 'SAVE' },
      linkClicks: { value: 5, networkName: 'OUTBOUND_CLICK' },
      views: { value: 673, networkName: 'VIDEO_MRC_VIEW' },
      reach: { value: null, reason: expect.stringContaining('not reach per Pin') },
      shares: { value: null, reason: 'Pinterest does not report shares of a Pin' },
    });
    const image = metricsOf(out.get('813744226420795999'));
    expect(image.saves).toEqual({ value: 0, reason: null, networkName: 'SAVE' }); // a reading of zero
    expect(image.views).toEqual({ value: null, reason: 'Pinterest reports video views only for video Pins', networkName: 'VIDEO_MRC_VIEW' });
    expect(out.get('813744226420700000')).toEqual({ ok: false, reason: 'Pinterest did not find this Pin (deleted)' });
  });

  it('asks again without the video metric when Pinterest refuses it for a Pin', async () => {
    api.on('GET', path('1'), (req) =>
      req.query.get('metric_types')!.includes('VIDEO')
        ? { status: 400, json: { code: 1, message: 'Invalid parameters.' } }
        : { json: f('pin-analytics-image') },
    );
    const out = await reader().readPostMetrics(account(), [pin('1')], ctx());
    expect(api.calls('GET', path('1')).map((c) => c.query.get('metric_types'))).toEqual([
      'IMPRESSION,SAVE,OUTBOUND_CLICK,VIDEO_MRC_VIEW',
      'IMPRESSION,SAVE,OUTBOUND_CLICK',
    ]);
    expect(metricsOf(out.get('1')).linkClicks.value).toBe(12);
  });

  it('leaves a refused Pin’s metrics null with Pinterest’s words', async () => {
    api.on('GET', path('2'), { status: 403, json: f('error-forbidden') });
    const m = metricsOf((await reader().readPostMetrics(account(), [pin('2')], ctx())).get('2'));
    expect(m.impressions).toEqual({ value: null, reason: expect.stringContaining('not permitted'), networkName: null });
    expect(m.impressions.reason).toContain('pins:read');
  });

  it('refreshes an expired token with the app’s credentials and reads with the new one', async () => {
    const { connection, tokens } = storedConnection('pinterest', {
      externalId: 'heraldcoffee',
      accountName: 'heraldcoffee',
      accessToken: 'pina_old',
      refreshToken: 'pinr_refresh',
      tokenExpiresAt: new Date(Date.now() - 1000),
    });
    api.on('POST', '/v5/oauth/token', { json: f('token-refreshed') });
    api.on('GET', path('3'), { json: f('pin-analytics') });
    const out = await reader({ clientId: '1484362', clientSecret: 'pinterest-secret' }).readPostMetrics(connection, [pin('3')], { tokens, now });
    expect(api.calls('POST', '/v5/oauth/token')[0]!.form().get('refresh_token')).toBe('pinr_refresh');
    expect(api.calls('GET', path('3'))[0]!.headers.authorization).toBe(`Bearer ${f('token-refreshed').access_token}`);
    expect(metricsOf(out.get('3')).saves.value).toBe(9);
  });

  it('fails the connection on a refused token and on a rate limit it cannot wait out', async () => {
    api.on('GET', path('4'), { status: 401, json: f('error-authentication') });
    await expect(reader().readPostMetrics(account(), [pin('4')], ctx())).rejects.toBeInstanceOf(TokenExpiredError);

    api.on('GET', path('4'), { status: 429, json: f('error-rate-limit') }, { json: f('pin-analytics') });
    const error = await reader()
      .readPostMetrics(account(), [pin('4')], ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toContain('exceeded your rate limit');

    api.on('GET', path('5'), { status: 429, headers: { 'retry-after': '0' }, json: f('error-rate-limit') }, { json: f('pin-analytics') });
    expect(metricsOf((await reader().readPostMetrics(account(), [pin('5')], ctx())).get('5')).impressions.value).toBe(2270);
  });
});
