import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createInstagramPublisher } from './instagram-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const IG_USER = '17841400008460056';
const CONTAINER = '17889455560051444';
const MEDIA = '17920238422030506';

const api = useFakePlatformApi();
const connection = liveConnection('instagram', { externalId: IG_USER, accountName: 'herald.coffee', accessToken: 'EAAG-instagram-token' });

const publisher = () => publishing(createInstagramPublisher({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, pollIntervalMs: 0, pollAttempts: 3 }));

function happyPath() {
  api.on('POST', `/v25.0/${IG_USER}/media`, { json: f('container-created') });
  api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-finished') });
  api.on('POST', `/v25.0/${IG_USER}/media_publish`, { json: f('media-published') });
  api.on('GET', `/v25.0/${MEDIA}`, { json: f('media-permalink') });
  api.on('POST', `/v25.0/${MEDIA}/comments`, { json: f('comment-created') });
}

describe('instagram publishing', () => {
  it('publishes a single image, then fetches the permalink, leaving the first comment to delivery', async () => {
    happyPath();
    const result = await publisher().publish(connection, {
      content: 'New roast is in ☕ #coffee',
      mediaUrls: ['https://cdn.herald.example/m/beans.jpg'],
      mediaKinds: ['image'],
      settings: { firstComment: 'Shop link in bio' },
    });

    expect(result).toEqual({ postedId: MEDIA, permalink: 'https://www.instagram.com/p/C8kT2xqNQ3Z/' });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v25.0/${IG_USER}/media`,
      `GET /v25.0/${CONTAINER}`,
      `POST /v25.0/${IG_USER}/media_publish`,
      `GET /v25.0/${MEDIA}`,
    ]);
    const [create, status, publish, permalink] = api.requests;
    expect(create!.headers.authorization).toBe('Bearer EAAG-instagram-token');
    expect(create!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(create!.form())).toEqual({ image_url: 'https://cdn.herald.example/m/beans.jpg', caption: 'New roast is in ☕ #coffee' });
    expect(status!.query.get('fields')).toBe('status_code,status');
    expect(Object.fromEntries(publish!.form())).toEqual({ creation_id: CONTAINER });
    expect(permalink!.query.get('fields')).toBe('permalink');
    // The token never travels in a URL.
    expect(api.requests.every((r) => !r.query.has('access_token'))).toBe(true);
  });

  it('publishes a reel, polling the container until FINISHED', async () => {
    happyPath();
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-in-progress') }, { json: f('container-in-progress') }, { json: f('container-finished') });
    const result = await publisher().publish(connection, {
      content: 'Behind the roaster',
      mediaUrls: ['https://cdn.herald.example/m/roaster.bin'],
      mediaKinds: ['video'],
      settings: { videoType: 'reel', shareToFeed: false, coverUrl: 'https://cdn.herald.example/m/cover.jpg' },
    });

    expect(result.postedId).toBe(MEDIA);
    expect(Object.fromEntries(api.calls('POST', `/v25.0/${IG_USER}/media`)[0]!.form())).toEqual({
      media_type: 'REELS',
      video_url: 'https://cdn.herald.example/m/roaster.bin',
      caption: 'Behind the roaster',
      share_to_feed: 'false',
      cover_url: 'https://cdn.herald.example/m/cover.jpg',
    });
    expect(api.calls('GET', `/v25.0/${CONTAINER}`)).toHaveLength(3);
    expect(api.calls('POST', `/v25.0/${IG_USER}/media_publish`)).toHaveLength(1);
  });

  it('shares a feed video as a reel shown in the feed', async () => {
    happyPath();
    await publisher().publish(connection, { content: 'Pour-over', mediaUrls: ['https://cdn.herald.example/m/pour.mp4'], settings: { videoType: 'feed' } });
    expect(Object.fromEntries(api.calls('POST', `/v25.0/${IG_USER}/media`)[0]!.form())).toMatchObject({ media_type: 'REELS', share_to_feed: 'true' });
  });

  it('publishes a carousel: one child container per item, then the CAROUSEL container with their ids', async () => {
    let next = 0;
    const ids = ['18011111111111111', '18022222222222222', CONTAINER];
    api.on('POST', `/v25.0/${IG_USER}/media`, () => ({ json: { id: ids[next++] } }));
    api.on('GET', /^\/v25\.0\/1[78]\d+$/, { json: f('container-finished') });
    api.on('POST', `/v25.0/${IG_USER}/media_publish`, { json: f('media-published') });
    api.on('GET', `/v25.0/${MEDIA}`, { json: f('media-permalink') });

    const result = await publisher().publish(connection, {
      content: 'Two ways to brew',
      mediaUrls: ['https://cdn.herald.example/m/a.jpg', 'https://cdn.herald.example/m/b.mp4'],
      mediaKinds: ['image', 'video'],
      settings: {},
    });

    expect(result.postedId).toBe(MEDIA);
    const creates = api.calls('POST', `/v25.0/${IG_USER}/media`).map((r) => Object.fromEntries(r.form()));
    expect(creates).toEqual([
      { image_url: 'https://cdn.herald.example/m/a.jpg', is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: 'https://cdn.herald.example/m/b.mp4', is_carousel_item: 'true' },
      { media_type: 'CAROUSEL', caption: 'Two ways to brew', children: '18011111111111111,18022222222222222' },
    ]);
    // The video child is checked before the carousel is built; the carousel before publishing.
    expect(api.requests.map((r) => `${r.method} ${r.path}`).slice(0, 5)).toEqual([
      `POST /v25.0/${IG_USER}/media`,
      `POST /v25.0/${IG_USER}/media`,
      'GET /v25.0/18022222222222222',
      `POST /v25.0/${IG_USER}/media`,
      `GET /v25.0/${CONTAINER}`,
    ]);
    expect(Object.fromEntries(api.calls('POST', `/v25.0/${IG_USER}/media_publish`)[0]!.form())).toEqual({ creation_id: CONTAINER });
  });

  it('publishes a story without a caption', async () => {
    happyPath();
    await publisher().publish(connection, {
      content: 'ignored for stories',
      mediaUrls: ['https://cdn.herald.example/m/s.jpg'],
      settings: { videoType: 'story' },
    });
    expect(Object.fromEntries(api.calls('POST', `/v25.0/${IG_USER}/media`)[0]!.form())).toEqual({
      media_type: 'STORIES',
      image_url: 'https://cdn.herald.example/m/s.jpg',
    });
  });

  it('still succeeds when the permalink cannot be read after publishing', async () => {
    happyPath();
    api.on('GET', `/v25.0/${MEDIA}`, { status: 500, json: { error: { message: 'An unknown error has occurred.', code: 1 } } });
    const result = await publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/a.jpg'], settings: {} });
    expect(result).toEqual({ postedId: MEDIA, permalink: null });
  });
});

describe('instagram checkpoint', () => {
  it('records the container to publish before media_publish can publish it', async () => {
    happyPath();
    const recorded: { values: Record<string, string>; sentBefore: string[] }[] = [];
    const checkpoint = async (values: Record<string, string>) => {
      recorded.push({ values, sentBefore: api.requests.map((r) => `${r.method} ${r.path}`) });
    };
    const instagram = createInstagramPublisher({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, pollIntervalMs: 0, pollAttempts: 3 });
    const result = await instagram.publish(
      connection,
      { content: 'Behind the roaster', mediaUrls: ['https://cdn.herald.example/m/roaster.mp4'], mediaKinds: ['video'], settings: {} },
      { tokens: new MemoryTokenStore(), checkpoint },
    );

    expect(result.postedId).toBe(MEDIA);
    expect(recorded).toEqual([{ values: { containerId: CONTAINER }, sentBefore: [`POST /v25.0/${IG_USER}/media`] }]);
  });

  it('records the carousel container, not its children', async () => {
    let next = 0;
    const ids = ['18011111111111111', '18022222222222222', CONTAINER];
    api.on('POST', `/v25.0/${IG_USER}/media`, () => ({ json: { id: ids[next++] } }));
    api.on('GET', /^\/v25\.0\/1[78]\d+$/, { json: f('container-finished') });
    api.on('POST', `/v25.0/${IG_USER}/media_publish`, { json: f('media-published') });
    const recorded: Record<string, string>[] = [];
    const instagram = createInstagramPublisher({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, pollIntervalMs: 0, pollAttempts: 3 });
    await instagram.publish(
      connection,
      { content: 'Two ways', mediaUrls: ['https://cdn.herald.example/m/a.jpg', 'https://cdn.herald.example/m/b.jpg'], settings: {} },
      { tokens: new MemoryTokenStore(), checkpoint: async (values) => void recorded.push(values) },
    );
    expect(recorded).toEqual([{ containerId: CONTAINER }]);
  });

  it('publishes nothing when the container cannot be recorded', async () => {
    happyPath();
    const instagram = createInstagramPublisher({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, pollIntervalMs: 0, pollAttempts: 3 });
    const attempt = instagram.publish(
      connection,
      { content: 'x', mediaUrls: ['https://cdn.herald.example/m/a.jpg'], settings: {} },
      {
        tokens: new MemoryTokenStore(),
        checkpoint: async () => {
          throw new Error('the attempt could not be recorded');
        },
      },
    );
    await expect(attempt).rejects.toThrow('the attempt could not be recorded');
    expect(api.calls('POST', `/v25.0/${IG_USER}/media_publish`)).toHaveLength(0);
  });
});

describe('instagram errors', () => {
  it('maps a Graph error to its message, verbatim', async () => {
    api.on('POST', `/v25.0/${IG_USER}/media`, { status: 400, json: f('error-media-fetch') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/cat.jpg'], settings: {} }));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Only photo or video can be accepted as media type.');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('reports a container that failed processing with its status text', async () => {
    happyPath();
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-error') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/v.mp4'], settings: {} }));
    expect(error.message).toBe('Error: Media upload has failed with error code 2207026');
    expect(api.calls('POST', `/v25.0/${IG_USER}/media_publish`)).toHaveLength(0);
  });

  it('gives up on a container still processing after the last poll, without publishing', async () => {
    happyPath();
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-in-progress') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/v.mp4'], settings: {} }));
    expect(error.message).toBe('Instagram was still processing the media after 0 s; nothing was published');
    expect(api.calls('GET', `/v25.0/${CONTAINER}`)).toHaveLength(4);
    expect(api.calls('POST', `/v25.0/${IG_USER}/media_publish`)).toHaveLength(0);
  });

  it('passes a rate limit (code 4) on with its status', async () => {
    happyPath();
    api.on('POST', `/v25.0/${IG_USER}/media_publish`, { status: 403, json: f('error-rate-limit') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/a.jpg'], settings: {} }));
    expect(error.message).toBe('Application request limit reached');
    expect(error.opts).toEqual({ status: 403 });
  });

  it('raises TokenExpiredError for code 190', async () => {
    api.on('POST', `/v25.0/${IG_USER}/media`, { status: 400, json: f('error-token-expired') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/a.jpg'], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-token-expired').error.message);
  });

  it('refuses a post without media before calling Instagram', async () => {
    const error = await failure(publisher().publish(connection, { content: 'text only', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Instagram posts need at least one image or video');
    expect(api.requests).toHaveLength(0);
  });
});
