import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type TokenStore } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createThreadsPublisher } from './threads-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const USER = '26308861195437268';
const CONTAINER = '18052749883012345';
const MEDIA = '18064532145098765';

const api = useFakePlatformApi();
const connection = liveConnection('threads', { externalId: USER, accountName: 'heraldcoffee', accessToken: 'THAAJ-token' });

const publisher = (tokens?: TokenStore) =>
  publishing(createThreadsPublisher({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v1.0`, pollIntervalMs: 0, pollAttempts: 3 }), tokens);

function happyPath() {
  api.on('POST', `/v1.0/${USER}/threads`, { json: f('container-created') });
  api.on('GET', `/v1.0/${CONTAINER}`, { json: f('container-finished') });
  api.on('POST', `/v1.0/${USER}/threads_publish`, { json: f('thread-published') });
  api.on('GET', `/v1.0/${MEDIA}`, { json: f('thread-permalink') });
}

describe('threads publishing', () => {
  it('publishes a text post: container, status, publish, permalink', async () => {
    happyPath();
    const result = await publisher().publish(connection, { content: 'Fresh batch at 7am', mediaUrls: [], settings: {} });

    expect(result).toEqual({ postedId: MEDIA, permalink: 'https://www.threads.com/@heraldcoffee/post/DC1xYz2AbCd' });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1.0/${USER}/threads`,
      `GET /v1.0/${CONTAINER}`,
      `POST /v1.0/${USER}/threads_publish`,
      `GET /v1.0/${MEDIA}`,
    ]);
    const [create, status, publish, permalink] = api.requests;
    expect(create!.headers.authorization).toBe('Bearer THAAJ-token');
    expect(Object.fromEntries(create!.form())).toEqual({ media_type: 'TEXT', text: 'Fresh batch at 7am' });
    expect(status!.query.get('fields')).toBe('status,error_message');
    expect(Object.fromEntries(publish!.form())).toEqual({ creation_id: CONTAINER });
    expect(permalink!.query.get('fields')).toBe('permalink');
  });

  it('publishes a video, waiting for the container to finish', async () => {
    happyPath();
    api.on('GET', `/v1.0/${CONTAINER}`, { json: f('container-in-progress') }, { json: f('container-finished') });
    await publisher().publish(connection, { content: 'Pour', mediaUrls: ['https://cdn.herald.example/m/pour'], mediaKinds: ['video'], settings: {} });
    expect(Object.fromEntries(api.calls('POST', `/v1.0/${USER}/threads`)[0]!.form())).toEqual({
      media_type: 'VIDEO',
      video_url: 'https://cdn.herald.example/m/pour',
      text: 'Pour',
    });
    expect(api.calls('GET', `/v1.0/${CONTAINER}`)).toHaveLength(2);
  });

  it('publishes a carousel: item containers, then a CAROUSEL container with their ids', async () => {
    const ids = ['18000000000000001', '18000000000000002', CONTAINER];
    let next = 0;
    api.on('POST', `/v1.0/${USER}/threads`, () => ({ json: { id: ids[next++] } }));
    api.on('GET', /^\/v1\.0\/180\d+$/, { json: f('container-finished') });
    api.on('POST', `/v1.0/${USER}/threads_publish`, { json: f('thread-published') });
    api.on('GET', `/v1.0/${MEDIA}`, { json: f('thread-permalink') });

    await publisher().publish(connection, {
      content: 'Menu board',
      mediaUrls: ['https://cdn.herald.example/m/1.jpg', 'https://cdn.herald.example/m/2.mp4'],
      mediaKinds: ['image', 'video'],
      settings: {},
    });

    expect(api.calls('POST', `/v1.0/${USER}/threads`).map((r) => Object.fromEntries(r.form()))).toEqual([
      { media_type: 'IMAGE', image_url: 'https://cdn.herald.example/m/1.jpg', is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: 'https://cdn.herald.example/m/2.mp4', is_carousel_item: 'true' },
      { media_type: 'CAROUSEL', children: '18000000000000001,18000000000000002', text: 'Menu board' },
    ]);
  });
});

describe('threads checkpoint', () => {
  it('records the container to publish before threads_publish can publish it', async () => {
    happyPath();
    const recorded: { values: Record<string, string>; sentBefore: string[] }[] = [];
    const threads = createThreadsPublisher({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v1.0`, pollIntervalMs: 0, pollAttempts: 3 });
    const result = await threads.publish(
      connection,
      { content: 'Fresh batch at 7am', mediaUrls: [], settings: {} },
      {
        tokens: new MemoryTokenStore(),
        checkpoint: async (values) => void recorded.push({ values, sentBefore: api.requests.map((r) => `${r.method} ${r.path}`) }),
      },
    );

    expect(result.postedId).toBe(MEDIA);
    expect(recorded).toEqual([{ values: { containerId: CONTAINER }, sentBefore: [`POST /v1.0/${USER}/threads`] }]);
    expect(api.calls('POST', `/v1.0/${USER}/threads_publish`)).toHaveLength(1);
  });

  it('publishes nothing when the container cannot be recorded', async () => {
    happyPath();
    const threads = createThreadsPublisher({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v1.0`, pollIntervalMs: 0, pollAttempts: 3 });
    const attempt = threads.publish(
      connection,
      { content: 'x', mediaUrls: [], settings: {} },
      {
        tokens: new MemoryTokenStore(),
        checkpoint: async () => {
          throw new Error('the attempt could not be recorded');
        },
      },
    );
    await expect(attempt).rejects.toThrow('the attempt could not be recorded');
    expect(api.calls('POST', `/v1.0/${USER}/threads_publish`)).toHaveLength(0);
  });
});

describe('threads errors', () => {
  it('maps a Graph error to its message, verbatim', async () => {
    api.on('POST', `/v1.0/${USER}/threads`, { status: 400, json: f('error-text-too-long') });
    const error = await failure(publisher().publish(connection, { content: 'x'.repeat(501), mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Param text must be at most 500 characters long.');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('reports a failed container with its error_message', async () => {
    happyPath();
    api.on('GET', `/v1.0/${CONTAINER}`, { json: f('container-error') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/v.mp4'], settings: {} }));
    expect(error.message).toBe('FAILED_DOWNLOADING_VIDEO');
    expect(api.calls('POST', `/v1.0/${USER}/threads_publish`)).toHaveLength(0);
  });

  it('passes a rate limit on with its status, not as an expired token', async () => {
    happyPath();
    api.on('POST', `/v1.0/${USER}/threads_publish`, { status: 403, json: f('error-rate-limit') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Application request limit reached');
    expect(error.opts).toEqual({ status: 403 });
  });

  it('raises TokenExpiredError when the token is rejected and cannot be extended', async () => {
    api.on('POST', `/v1.0/${USER}/threads`, { status: 400, json: f('error-token-expired') });
    api.on('GET', '/refresh_access_token', { status: 400, json: f('error-token-expired') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-token-expired').error.message);
  });
});

describe('threads token refresh', () => {
  const account = (accessToken: string, tokenExpiresAt: Date) =>
    storedConnection('threads', { externalId: USER, accountName: 'heraldcoffee', accessToken, tokenExpiresAt });

  it('extends a token about to lapse before publishing and stores the new one', async () => {
    const soon = new Date(Date.now() + 2 * 24 * 3_600_000);
    const { connection: row, tokens } = account('THAAJ-old', soon);
    happyPath();
    api.on('GET', '/refresh_access_token', { json: f('token-refreshed') });

    await publisher(tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} });

    const refresh = api.calls('GET', '/refresh_access_token')[0]!;
    expect(Object.fromEntries(refresh.query)).toEqual({ grant_type: 'th_refresh_token', access_token: 'THAAJ-old' });
    expect(api.calls('POST', `/v1.0/${USER}/threads`)[0]!.headers.authorization).toBe('Bearer THAAJ-refreshed-long-lived-token');
    const stored = tokens.get(row.id)!;
    expect(stored.accessToken).toBe('THAAJ-refreshed-long-lived-token');
    expect(stored.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 59 * 24 * 3_600_000);
  });

  it('still publishes with a valid token when the early extension is refused', async () => {
    const { connection: row, tokens } = account('THAAJ-valid', new Date(Date.now() + 3 * 24 * 3_600_000));
    happyPath();
    api.on('GET', '/refresh_access_token', { status: 403, json: f('error-rate-limit') });

    const result = await publisher(tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} });

    expect(result.postedId).toBe(MEDIA);
    expect(api.calls('POST', `/v1.0/${USER}/threads`)[0]!.headers.authorization).toBe('Bearer THAAJ-valid');
    expect(tokens.get(row.id)!.accessToken).toBe('THAAJ-valid');
    expect(tokens.saved).toEqual([]);
  });
});
