// Rate limits as platforms state them: RFC 9110 §10.2.3 Retry-After (delay-seconds or an HTTP
// date), or a platform's own field. A stated wait within the bound is waited out and the same
// request sent again; anything else is handed back for the adapter to report.
import { describe, expect, it } from 'vitest';
import { callApi, RATE_LIMIT_MAX_WAIT_MS, retryAfterHeaderMs } from './http';
import { useFakePlatformApi } from './testing/adapter-tests';

const api = useFakePlatformApi();

describe('retryAfterHeaderMs', () => {
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(retryAfterHeaderMs(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterHeaderMs(new Headers({ 'retry-after': 'Wed, 25 Nov 2026 12:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterHeaderMs(new Headers({ 'retry-after': 'Wed, 25 Nov 2026 11:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterHeaderMs(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(retryAfterHeaderMs(new Headers(), now)).toBeNull();
  });
});

describe('callApi and a rate limit', () => {
  it('waits out a stated Retry-After and sends the same request again', async () => {
    api.on('POST', '/things', { status: 429, headers: { 'retry-after': '0' }, json: { error: 'slow down' } }, { status: 201, json: { id: '1' } });
    const response = await callApi(api.fetch, `${api.baseUrl}/things`, { json: { name: 'a' } });
    expect(response.status).toBe(201);
    const calls = api.calls('POST', '/things');
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => c.json())).toEqual([{ name: 'a' }, { name: 'a' }]);
  });

  it('reads a platform’s own field when the request names one', async () => {
    api.on('POST', '/send', { status: 429, json: { ok: false, parameters: { retry_after: 0 } } }, { json: { ok: true } });
    const response = await callApi(api.fetch, `${api.baseUrl}/send`, {
      json: {},
      retryAfter: (r) => ((r.json as { parameters?: { retry_after?: number } }).parameters?.retry_after ?? NaN) * 1000,
    });
    expect(response.status).toBe(200);
    expect(api.calls('POST', '/send')).toHaveLength(2);
  });

  it('hands back a 429 with no stated wait, one beyond the bound, or one that outlasts the retries', async () => {
    api.on('GET', '/unstated', { status: 429, json: {} });
    expect((await callApi(api.fetch, `${api.baseUrl}/unstated`)).status).toBe(429);
    expect(api.calls('GET', '/unstated')).toHaveLength(1);

    api.on('GET', '/long', { status: 429, headers: { 'retry-after': String(RATE_LIMIT_MAX_WAIT_MS / 1000 + 1) }, json: {} });
    expect((await callApi(api.fetch, `${api.baseUrl}/long`)).status).toBe(429);
    expect(api.calls('GET', '/long')).toHaveLength(1);

    api.on('GET', '/always', { status: 429, headers: { 'retry-after': '0' }, json: {} });
    expect((await callApi(api.fetch, `${api.baseUrl}/always`)).status).toBe(429);
    expect(api.calls('GET', '/always')).toHaveLength(3);
  });
});
