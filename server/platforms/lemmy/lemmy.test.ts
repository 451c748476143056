// Lemmy against the documented API v3 shapes (lemmy-js-client 0.19), served by the local HTTPS
// stand-in through the guarded client:
//   https://join-lemmy.org/api/classes/LemmyHttp.html#createPost
//   https://join-lemmy.org/api/classes/LemmyHttp.html#uploadImage
//   https://join-lemmy.org/api/classes/LemmyHttp.html#getPersonDetails
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { communityName } from './lemmy-api';
import { createLemmyPublisher } from './lemmy-publisher';
import { createLemmyReconciler } from './lemmy-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const JWT = f('login').jwt as string;
const api = useFakePlatformApi();
const connection = () =>
  liveConnection('lemmy', {
    externalId: '2410@lemmy.example!77',
    accountName: '@heraldcoffee@lemmy.example → !coffee@lemmy.world',
    accessToken: JWT,
    platformData: { instanceUrl: 'https://lemmy.example', username: 'heraldcoffee', personId: 2410, communityId: 77 },
  });
const publisher = () => publishing(createLemmyPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const IMAGE = '/media/beans.jpg';

describe('Lemmy publishing', () => {
  it('uploads the image to pict-rs, then posts it with the title and body to the chosen community', async () => {
    api.on('GET', IMAGE, { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('jpeg bytes') });
    api.on('POST', '/pictrs/image', { json: f('image-uploaded') });
    api.on('POST', '/api/v3/post', { json: f('post-created') });
    const result = await publisher().publish(connection(), {
      content: 'Roasted on Tuesday, in the shop from Friday.',
      mediaUrls: [`${api.baseUrl}${IMAGE}`],
      mediaKinds: ['image'],
      settings: { title: 'Our winter blend is back', altText: 'A bag of beans' },
    });

    expect(result).toEqual({ postedId: '9183211', permalink: 'https://lemmy.example/post/9183211' });
    const [upload] = api.calls('POST', '/pictrs/image');
    expect(upload!.headers.authorization).toBe(`Bearer ${JWT}`);
    expect(upload!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload!.text).toContain('name="images[]"; filename="beans.jpg"');
    expect(upload!.text).toContain('jpeg bytes');
    const [post] = api.calls('POST', '/api/v3/post');
    expect(post!.headers.authorization).toBe(`Bearer ${JWT}`);
    expect(post!.json()).toEqual({
      name: 'Our winter blend is back',
      community_id: 77,
      body: 'Roasted on Tuesday, in the shop from Friday.',
      url: `${api.baseUrl}/pictrs/image/5e1b0c9a-8f4d-4f7e-9a0e-0b3a7d2c1e44.jpeg`,
      alt_text: 'A bag of beans',
    });
  });

  it('posts a link with the image as its thumbnail', async () => {
    api.on('GET', IMAGE, { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('jpeg bytes') });
    api.on('POST', '/pictrs/image', { json: f('image-uploaded') });
    api.on('POST', '/api/v3/post', { json: f('post-created') });
    await publisher().publish(connection(), {
      content: '',
      mediaUrls: [`${api.baseUrl}${IMAGE}`],
      settings: { title: 'Brew guide', url: 'https://herald.coffee/brew', nsfw: false },
    });
    expect(api.calls('POST', '/api/v3/post')[0]!.json()).toEqual({
      name: 'Brew guide',
      community_id: 77,
      url: 'https://herald.coffee/brew',
      custom_thumbnail: `${api.baseUrl}/pictrs/image/5e1b0c9a-8f4d-4f7e-9a0e-0b3a7d2c1e44.jpeg`,
      nsfw: false,
    });
  });

  it('passes Lemmy’s refusal on verbatim', async () => {
    api.on('POST', '/api/v3/post', { status: 400, json: f('error-invalid-post-title') });
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: { title: '   x' } }));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('invalid_post_title');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('reports a login token the instance no longer accepts as a connection to reconnect', async () => {
    api.on('POST', '/api/v3/post', { status: 401, json: f('error-not-logged-in') });
    const error = await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: { title: 'Hello' } }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('not_logged_in');
  });

  it('waits out a rate limit the instance states, then posts once', async () => {
    api.on('POST', '/api/v3/post', { status: 429, headers: { 'retry-after': '0' }, json: f('error-rate-limit') }, { json: f('post-created') });
    const result = await publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: { title: 'Hello' } });
    expect(result.postedId).toBe('9183211');
    expect(api.calls('POST', '/api/v3/post')).toHaveLength(2);
  });

  it('refuses a video and a post without a title before calling Lemmy', async () => {
    expect((await failure(publisher().publish(connection(), { content: 'x', mediaUrls: [], settings: {} }))).message).toBe('A Lemmy post needs a title');
    const video = await failure(
      publisher().publish(connection(), { content: 'x', mediaUrls: ['https://cdn.herald.example/v.mp4'], mediaKinds: ['video'], settings: { title: 't' } }),
    );
    expect(video.message).toBe('Herald posts images to Lemmy, not videos');
    expect(api.requests).toHaveLength(0);
  });

  it('reads a community the way people write it', () => {
    expect(communityName('!coffee@lemmy.world')).toBe('coffee@lemmy.world');
    expect(communityName('coffee')).toBe('coffee');
    expect(communityName('https://lemmy.world/c/coffee')).toBe('coffee@lemmy.world');
    expect(communityName('not a community')).toBeNull();
  });
});

describe('Lemmy reconcile', () => {
  const intent = (extra = {}) => ({
    idempotencyKey: 'k',
    content: 'Roasted on Tuesday, in the shop from Friday.',
    mediaUrls: [],
    settings: { title: 'Our winter blend is back' },
    startedAt: new Date('2026-11-27T09:30:00Z'),
    ...extra,
  });
  const ctx = () => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T10:00:00Z') });
  const reconciler = () => createLemmyReconciler({ fetch: api.fetch, baseUrl: api.baseUrl });

  it('finds the post created since the attempt began with the title and text sent, in the community', async () => {
    api.on('GET', '/api/v3/user', { json: f('user-posts') });
    const settled = await reconciler().reconcile(connection(), intent(), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: '9183211', permalink: 'https://lemmy.example/post/9183211' },
      evidence: expect.stringContaining('9183211'),
    });
    const [read] = api.requests;
    expect(Object.fromEntries(read!.query)).toMatchObject({ username: 'heraldcoffee', sort: 'New', limit: '50' });
    expect(api.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('is absent when no post since the attempt carries the title', async () => {
    api.on('GET', '/api/v3/user', { json: f('user-posts') });
    const settled = await reconciler().reconcile(connection(), intent({ settings: { title: 'Something else' } }), ctx());
    expect(settled.outcome).toBe('absent');
  });

  it('cannot tell when the instance cannot be asked', async () => {
    api.on('GET', '/api/v3/user', { status: 502, body: 'Bad Gateway' });
    const settled = await reconciler().reconcile(connection(), intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: 'Lemmy could not be asked: Bad Gateway' });
  });
});
