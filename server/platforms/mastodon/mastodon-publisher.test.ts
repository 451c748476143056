// The Mastodon adapter against Mastodon's documented API (https://docs.joinmastodon.org/methods/media/,
// https://docs.joinmastodon.org/methods/statuses/#create, https://docs.joinmastodon.org/entities/Error/,
// https://docs.joinmastodon.org/api/rate-limits/); the bodies are the Status and MediaAttachment
// entities of https://docs.joinmastodon.org/entities/.
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createMastodonPublisher } from './mastodon-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const connection = (platformData: Record<string, unknown> = { instanceUrl: 'https://mastodon.example', maxChars: 500 }) =>
  liveConnection('mastodon', { externalId: '14715@mastodon.example', accountName: '@heraldcoffee@mastodon.example', accessToken: 'masto-token', platformData });
const publisher = () => publishing(createMastodonPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, pollIntervalMs: 0, pollAttempts: 3 }));
const media = (name: string) => `${api.baseUrl}/media/${name}`;
const STATUS_URL = 'https://mastodon.example/@heraldcoffee/103270115826048975';

describe('mastodon publishing', () => {
  it('uploads the video, waits for its processing, then posts the status with the Idempotency-Key', async () => {
    api.on('GET', '/media/latte.mp4', { headers: { 'content-type': 'video/mp4' }, body: Buffer.from('MP4BYTES') });
    api.on('POST', '/api/v2/media', { status: 202, json: f('media-processing') });
    api.on('GET', '/api/v1/media/22348641', { status: 206, json: f('media-processing') }, { json: f('media-ready') });
    api.on('POST', '/api/v1/statuses', { json: f('status') });

    const result = await publisher().publish(connection(), {
      content: 'Latte art in 30 seconds',
      mediaUrls: [media('latte.mp4')],
      mediaKinds: ['video'],
      settings: { visibility: 'unlisted', spoilerText: 'coffee', sensitive: false, language: 'en', altTexts: ['Pouring a latte'] },
      idempotencyKey: 'target-42',
    });

    expect(result).toEqual({ postedId: '103270115826048975', permalink: STATUS_URL });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /media/latte.mp4',
      'POST /api/v2/media',
      'GET /api/v1/media/22348641',
      'GET /api/v1/media/22348641',
      'POST /api/v1/statuses',
    ]);
    const upload = api.calls('POST', '/api/v2/media')[0]!;
    expect(upload.headers.authorization).toBe('Bearer masto-token');
    const form = await new Response(new Uint8Array(upload.body), { headers: { 'content-type': String(upload.headers['content-type']) } }).formData();
    expect((form.get('file') as File).type).toBe('video/mp4');
    expect(form.get('description')).toBe('Pouring a latte');
    const status = api.calls('POST', '/api/v1/statuses')[0]!;
    expect(status.headers['idempotency-key']).toBe('target-42');
    expect(status.json()).toEqual({
      status: 'Latte art in 30 seconds',
      media_ids: ['22348641'],
      visibility: 'unlisted',
      spoiler_text: 'coffee',
      sensitive: false,
      language: 'en',
    });
  });

  it('sends the same Idempotency-Key on a retry, so the server answers with the status it made', async () => {
    api.on('POST', '/api/v1/statuses', { json: f('status') });
    const request = { content: 'Once', mediaUrls: [], settings: {}, idempotencyKey: 'target-7' };
    const first = await publisher().publish(connection(), request);
    const again = await publisher().publish(connection(), request);
    expect(again).toEqual(first);
    expect(api.calls('POST', '/api/v1/statuses').map((r) => r.headers['idempotency-key'])).toEqual(['target-7', 'target-7']);
  });

  it('checks the server’s own text limit before calling it', async () => {
    const error = await failure(
      publisher().publish(connection({ instanceUrl: 'https://mastodon.example', maxChars: 10 }), { content: 'x'.repeat(11), mediaUrls: [], settings: {} }),
    );
    expect(error.message).toBe('This Mastodon server allows 10 characters; this text counts 11');
    expect(api.requests).toHaveLength(0);
  });
});

describe('mastodon errors', () => {
  it('records the server’s error verbatim with its status', async () => {
    api.on('POST', '/api/v1/statuses', { status: 422, json: f('error-validation') });
    const error = await failure(
      publisher().publish(connection({ instanceUrl: 'https://mastodon.example', maxChars: 5000 }), { content: 'x', mediaUrls: [], settings: {} }),
    );
    expect(error.message).toBe('Validation failed: Text character limit of 500 exceeded');
    expect(error.opts).toEqual({ status: 422 });
  });

  it('waits out a 429 until X-RateLimit-Reset, then posts', async () => {
    api.on(
      'POST',
      '/api/v1/statuses',
      () => ({ status: 429, headers: { 'x-ratelimit-reset': new Date(Date.now() + 500).toISOString() }, json: f('error-rate-limit') }),
      {
        json: f('status'),
      },
    );
    const result = await publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} });
    expect(result.permalink).toBe(STATUS_URL);
    expect(api.calls('POST', '/api/v1/statuses')).toHaveLength(2);
  });

  it('asks for a reconnect when the token was revoked', async () => {
    api.on('POST', '/api/v1/statuses', { status: 401, json: f('error-token-invalid') });
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The access token is invalid');
  });
});
