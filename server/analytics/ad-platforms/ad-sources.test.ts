// The ad-insights adapters against recorded Meta, LinkedIn and Google Ads answers served by a
// local HTTPS stand-in through the guarded outbound client: the requests they send, how they
// read the answers (no reading vs a zero reading), and errors passed on verbatim.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixture, rawFixture, startFakePlatformApi, type FakePlatformApi } from '@/server/platforms/testing/fake-platform-api';
import { googleAdsSource, microsToDecimal } from './google';
import { linkedinAdsSource } from './linkedin';
import { metaInsightsSource } from './meta';
import { AdSourceError, type AdAccountRef } from './port';
import { sandboxAdSource, sandboxReading } from './sandbox';

let fake: FakePlatformApi;
beforeAll(async () => {
  fake = await startFakePlatformApi();
});
afterAll(async () => {
  await fake.close();
  vi.unstubAllEnvs();
});
beforeEach(() => fake.reset());

const account = (over: Partial<AdAccountRef> = {}): AdAccountRef => ({
  externalId: '1234567890',
  currency: 'EUR',
  accessToken: 'tok-123',
  loginCustomerId: null,
  ...over,
});

describe('Meta Marketing API insights', () => {
  it('asks for daily account insights and follows the after cursor on the configured base', async () => {
    fake.on('GET', '/v25.0/act_1234567890/insights', (req) =>
      req.query.get('after') ? { json: fixture(import.meta.dirname, 'meta-insights-page2') } : { json: fixture(import.meta.dirname, 'meta-insights-page1') },
    );
    const source = metaInsightsSource({ fetch: fake.fetch, baseUrl: `${fake.baseUrl}/v25.0` });
    const readings = await source.fetchDaily(account({ externalId: 'act_1234567890' }), '2026-11-01', '2026-11-04');

    const [first, second] = fake.calls('GET', '/v25.0/act_1234567890/insights');
    expect(first!.query.get('level')).toBe('account');
    expect(first!.query.get('time_increment')).toBe('1');
    expect(JSON.parse(first!.query.get('time_range')!)).toEqual({ since: '2026-11-01', until: '2026-11-04' });
    expect(first!.query.get('fields')!.split(',')).toEqual(expect.arrayContaining(['impressions', 'reach', 'clicks', 'spend', 'conversions', 'date_start']));
    expect(first!.query.get('access_token')).toBe('tok-123');
    expect(second!.query.get('after')).toBe('MQZDZD');

    expect(readings).toEqual([
      { day: '2026-11-01', impressions: 10450, reach: 8123, clicks: 212, spend: '48.37', conversions: 6, currency: 'EUR' },
      // A day Meta reported with zeros is a zero reading.
      { day: '2026-11-02', impressions: 0, reach: 0, clicks: 0, spend: '0', conversions: null, currency: 'EUR' },
      // reach and conversions left out: no reading. 2026-11-03 is not in the answer at all.
      { day: '2026-11-04', impressions: 9876, reach: null, clicks: 180, spend: '41.02', conversions: null, currency: 'EUR' },
    ]);
  });

  it('passes the platform error on verbatim', async () => {
    fake.on('GET', '/v25.0/act_1/insights', { status: 400, json: fixture(import.meta.dirname, 'meta-error-rate-limit') });
    const source = metaInsightsSource({ fetch: fake.fetch, baseUrl: `${fake.baseUrl}/v25.0` });
    await expect(source.fetchDaily(account({ externalId: '1' }), '2026-11-01', '2026-11-02')).rejects.toThrow(
      new AdSourceError('Meta API error 17/2446079: (#17) User request limit reached'),
    );
  });

  it('reads its base URL from META_MARKETING_API_BASE_URL', async () => {
    vi.stubEnv('META_MARKETING_API_BASE_URL', `${fake.baseUrl}/custom/v25.0/`);
    fake.on('GET', '/custom/v25.0/act_9/insights', { json: { data: [] } });
    await metaInsightsSource({ fetch: fake.fetch }).fetchDaily(account({ externalId: '9' }), '2026-11-01', '2026-11-01');
    expect(fake.calls('GET', '/custom/v25.0/act_9/insights')).toHaveLength(1);
    vi.unstubAllEnvs();
  });
});

describe('LinkedIn ad analytics', () => {
  it('asks for the account pivot by day with the Rest.li headers', async () => {
    fake.on('GET', '/rest/adAnalytics', { json: fixture(import.meta.dirname, 'linkedin-ad-analytics') });
    const source = linkedinAdsSource({ fetch: fake.fetch, baseUrl: fake.baseUrl });
    const readings = await source.fetchDaily(account({ externalId: '508123456', currency: 'USD' }), '2026-11-01', '2026-11-03');
    const [req] = fake.calls('GET', '/rest/adAnalytics');
    expect(req!.query.get('q')).toBe('analytics');
    expect(req!.query.get('pivot')).toBe('ACCOUNT');
    expect(req!.query.get('timeGranularity')).toBe('DAILY');
    expect(req!.query.get('dateRange')).toBe('(start:(year:2026,month:11,day:1),end:(year:2026,month:11,day:3))');
    expect(req!.query.get('accounts')).toBe('List(urn:li:sponsoredAccount:508123456)');
    expect(req!.headers['x-restli-protocol-version']).toBe('2.0.0');
    expect(req!.headers['linkedin-version']).toMatch(/^\d{6}$/);
    expect(req!.headers.authorization).toBe('Bearer tok-123');
    expect(readings).toEqual([
      { day: '2026-11-01', impressions: 3200, reach: null, clicks: 41, spend: '96.4012', conversions: 3, currency: 'USD' },
      { day: '2026-11-03', impressions: 2810, reach: 2104, clicks: 0, spend: '71.15', conversions: 0, currency: 'USD' },
    ]);
  });

  it('passes the platform error on verbatim', async () => {
    fake.on('GET', '/rest/adAnalytics', { status: 401, json: fixture(import.meta.dirname, 'linkedin-error-unauthorized') });
    await expect(linkedinAdsSource({ fetch: fake.fetch, baseUrl: fake.baseUrl }).fetchDaily(account(), '2026-11-01', '2026-11-01')).rejects.toThrow(
      'LinkedIn API error INVALID_ACCESS_TOKEN (65600): Invalid access token',
    );
  });
});

describe('Google Ads', () => {
  it('streams a GAQL query for customer metrics by day with the developer token', async () => {
    fake.on('POST', '/v22/customers/1234567890/googleAds:searchStream', rawFixture(import.meta.dirname, 'google-search-stream'));
    const source = googleAdsSource({ fetch: fake.fetch, baseUrl: `${fake.baseUrl}/v22`, developerToken: 'dev-tok' });
    const readings = await source.fetchDaily(
      account({ externalId: '123-456-7890', currency: 'USD', loginCustomerId: '111-222-3333' }),
      '2026-11-01',
      '2026-11-03',
    );
    const [req] = fake.calls('POST', '/v22/customers/1234567890/googleAds:searchStream');
    expect(req!.headers['developer-token']).toBe('dev-tok');
    expect(req!.headers['login-customer-id']).toBe('1112223333');
    expect(req!.headers.authorization).toBe('Bearer tok-123');
    expect(req!.json().query).toBe(
      "SELECT segments.date, customer.currency_code, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM customer WHERE segments.date BETWEEN '2026-11-01' AND '2026-11-03' ORDER BY segments.date",
    );
    expect(readings).toEqual([
      { day: '2026-11-01', impressions: 4021, reach: null, clicks: 57, spend: '23.45', conversions: 2.5, currency: 'USD' },
      // Proto3 JSON leaves zeros out: inside a returned day they are zero readings.
      { day: '2026-11-02', impressions: 1200, reach: null, clicks: 0, spend: '0', conversions: 0, currency: 'USD' },
    ]);
  });

  it('passes the platform error on verbatim, and needs a developer token', async () => {
    fake.on('POST', '/v22/customers/1/googleAds:searchStream', { status: 401, json: fixture(import.meta.dirname, 'google-error-unauthenticated') });
    const source = googleAdsSource({ fetch: fake.fetch, baseUrl: `${fake.baseUrl}/v22`, developerToken: 'dev-tok' });
    await expect(source.fetchDaily(account({ externalId: '1' }), '2026-11-01', '2026-11-01')).rejects.toThrow(
      'Google Ads API error 401 UNAUTHENTICATED: Request is missing required authentication credential.',
    );
    vi.stubEnv('GOOGLE_ADS_DEVELOPER_TOKEN', '');
    await expect(googleAdsSource({ fetch: fake.fetch, baseUrl: fake.baseUrl }).fetchDaily(account(), '2026-11-01', '2026-11-01')).rejects.toThrow(
      'GOOGLE_ADS_DEVELOPER_TOKEN is not configured on this deployment',
    );
    vi.unstubAllEnvs();
  });

  it('converts micros exactly', () => {
    expect(['0', '1', '23450000', '1000000', '-2500000', '123456789012'].map(microsToDecimal)).toEqual([
      '0',
      '0.000001',
      '23.45',
      '1',
      '-2.5',
      '123456.789012',
    ]);
  });
});

describe('the sandbox source', () => {
  it('is deterministic, has days without any reading and days without a conversions reading', async () => {
    const a = await sandboxAdSource.fetchDaily(account({ externalId: 'sbx-ads-1' }), '2026-01-01', '2026-12-31');
    const b = await sandboxAdSource.fetchDaily(account({ externalId: 'sbx-ads-1' }), '2026-01-01', '2026-12-31');
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(280);
    expect(a.length).toBeLessThan(365);
    expect(a.some((r) => r.conversions === null)).toBe(true);
    expect(a.every((r) => r.impressions! > 0 && r.clicks! <= r.impressions!)).toBe(true);
    expect(sandboxReading('sbx-ads-2', '2026-01-01', 'EUR')).not.toEqual(sandboxReading('sbx-ads-1', '2026-01-01', 'EUR'));
  });
});
