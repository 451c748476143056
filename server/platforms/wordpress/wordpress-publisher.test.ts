// The WordPress adapter against the REST API as documented (https://developer.wordpress.org/rest-api/reference/):
// media/#create-a-media-item, categories/ and tags/ (list with ?search=, create), posts/#create-a-post
// and the error body { code, message, data: { status } }; the messages in fixtures/ are WordPress
// core's own (incorrect_password, rest_cannot_publish, term_exists).
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createWordpressPublisher } from './wordpress-publisher';
import { createWordpressReconciler } from './wordpress-reconcile';
import { MemoryTokenStore } from '../testing/adapter-tests';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const PASSWORD = 'abcd EFGH ijkl MNOP qrst UVWX';
const connection = () =>
  liveConnection('wordpress', {
    externalId: 'blog.heraldcoffee.example#3',
    accountName: 'blog.heraldcoffee.example',
    accessToken: PASSWORD,
    platformData: { siteUrl: 'https://blog.heraldcoffee.example', username: 'heraldeditor', userId: '3' },
  });
const publisher = () => publishing(createWordpressPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const WP = '/wp-json/wp/v2';

describe('wordpress publishing', () => {
  it('uploads the images, finds or creates the terms, then creates the post as HTML with the featured image', async () => {
    api.on('GET', '/media/latte.jpg', { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('JPEGBYTES') });
    api.on('GET', '/media/pour.jpg', { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('JPEGBYTES2') });
    api.on(
      'POST',
      `${WP}/media`,
      { status: 201, json: f('media-created') },
      { status: 201, json: { ...f('media-created'), id: 1841, source_url: 'https://blog.heraldcoffee.example/wp-content/uploads/2026/11/pour.jpg' } },
    );
    api.on('GET', `${WP}/categories`, { json: [{ id: 7, name: 'Coffee &amp; Tea', slug: 'coffee-tea' }] });
    api.on('GET', `${WP}/tags`, (request) => ({ json: request.query.get('search') === 'barista' ? [{ id: 40, name: 'Barista tips' }] : [] }));
    api.on('POST', `${WP}/tags`, (request) =>
      request.json().name === 'barista' ? { status: 201, json: { id: 13, name: 'barista' } } : { status: 400, json: f('error-term-exists') },
    );
    api.on('POST', `${WP}/posts`, { status: 201, json: f('post-created') });

    const result = await publisher().publish(connection(), {
      content: 'Latte art in 30 seconds\n\nSteam the milk to 60 °C.\nTilt the cup & pour.',
      mediaUrls: [`${api.baseUrl}/media/latte.jpg`, `${api.baseUrl}/media/pour.jpg`],
      mediaKinds: ['image', 'image'],
      settings: { categories: ['coffee & tea'], tags: ['latte', 'barista'], excerpt: 'Pour like a barista' },
    });

    expect(result).toEqual({ postedId: '1842', permalink: 'https://blog.heraldcoffee.example/2026/11/27/latte-art-in-30-seconds/' });
    const [upload] = api.calls('POST', `${WP}/media`);
    expect(upload!.headers['content-disposition']).toBe('attachment; filename="latte.jpg"');
    expect(upload!.headers['content-type']).toBe('image/jpeg');
    expect(upload!.text).toBe('JPEGBYTES');
    expect(upload!.headers.authorization).toBe(`Basic ${Buffer.from(`heraldeditor:${PASSWORD}`).toString('base64')}`);
    expect(api.calls('GET', `${WP}/categories`)[0]!.query.get('search')).toBe('coffee & tea');
    expect(api.calls('POST', `${WP}/categories`)).toHaveLength(0);
    expect(api.calls('POST', `${WP}/tags`).map((c) => c.json())).toEqual([{ name: 'latte' }, { name: 'barista' }]);
    expect(api.calls('POST', `${WP}/posts`)[0]!.json()).toEqual({
      title: 'Latte art in 30 seconds',
      content:
        '<p>Steam the milk to 60 °C.<br>Tilt the cup &amp; pour.</p>\n' +
        '<figure class="wp-block-image"><img src="https://blog.heraldcoffee.example/wp-content/uploads/2026/11/pour.jpg" alt=""/></figure>',
      status: 'publish',
      featured_media: 1840,
      categories: [7],
      tags: [12, 13],
      excerpt: 'Pour like a barista',
    });
  });

  it('leaves a draft when asked, with the title setting', async () => {
    api.on('POST', `${WP}/posts`, { status: 201, json: { ...f('post-created'), status: 'draft' } });
    await publisher().publish(connection(), { content: 'Body only', mediaUrls: [], settings: { title: 'Given', published: false } });
    expect(api.calls('POST', `${WP}/posts`)[0]!.json()).toEqual({ title: 'Given', content: '<p>Body only</p>', status: 'draft' });
  });

  it('refuses a video before calling the site', async () => {
    const error = await failure(
      publisher().publish(connection(), { content: 'x', mediaUrls: ['https://cdn.heraldcoffee.example/pour.mp4'], mediaKinds: ['video'], settings: {} }),
    );
    expect(error.message).toBe('Herald sends WordPress posts with images only; link a video in the text');
    expect(api.requests).toHaveLength(0);
  });
});

describe('wordpress errors', () => {
  it('records WordPress’s refusal verbatim with its status', async () => {
    api.on('POST', `${WP}/posts`, { status: 403, json: f('error-cannot-publish') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Sorry, you are not allowed to publish posts as this user.');
    expect(error.opts).toEqual({ status: 403 });
  });

  it('asks for a reconnect when the application password is refused', async () => {
    api.on('POST', `${WP}/posts`, { status: 401, json: f('error-invalid-password') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The provided password is an invalid application password.');
  });

  it('waits out a 429 for its Retry-After, then creates the post once', async () => {
    api.on('POST', `${WP}/posts`, { status: 429, headers: { 'retry-after': '1' }, body: 'Too Many Requests' }, { status: 201, json: f('post-created') });
    const started = Date.now();
    const result = await publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} });
    expect(result.postedId).toBe('1842');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(api.calls('POST', `${WP}/posts`)).toHaveLength(2);
  });
});

// Settling from the site's newest posts: https://developer.wordpress.org/rest-api/reference/posts/#list-posts
describe('wordpress reconcile', () => {
  const reconciler = () => createWordpressReconciler({ fetch: api.fetch, baseUrl: api.baseUrl });
  const ctx = { tokens: new MemoryTokenStore(), now: new Date('2026-11-27T09:05:00Z') };
  const intent = (content: string, settings: Record<string, unknown> = {}) => ({
    idempotencyKey: 't',
    content,
    mediaUrls: [],
    settings,
    startedAt: new Date('2026-11-27T09:00:00Z'),
  });

  it('finds the post dated since the attempt with the title sent, asking for drafts too', async () => {
    api.on('GET', `${WP}/posts`, { headers: { 'x-wp-totalpages': '1' }, json: f('posts-edit') });
    const outcome = await reconciler().reconcile(connection(), intent('Latte art in 30 seconds\nSteam the milk.'), ctx);
    expect(outcome).toMatchObject({
      outcome: 'found',
      result: { postedId: '1842', permalink: 'https://blog.heraldcoffee.example/2026/11/27/latte-art-in-30-seconds/' },
    });
    const query = api.calls('GET', `${WP}/posts`)[0]!.query;
    expect([query.get('status'), query.get('context'), query.get('orderby'), query.get('per_page')]).toEqual(['publish,draft', 'edit', 'date', '50']);
  });

  it('is absent when the posts end without it, and an older post of that title does not count', async () => {
    api.on('GET', `${WP}/posts`, { headers: { 'x-wp-totalpages': '1' }, json: f('posts-edit') });
    expect((await reconciler().reconcile(connection(), intent('Body', { title: 'Our autumn menu' }), ctx)).outcome).toBe('absent');
  });

  it('is unknown, with WordPress’s words, when the password is refused', async () => {
    api.on('GET', `${WP}/posts`, { status: 401, json: f('error-invalid-password') });
    expect(await reconciler().reconcile(connection(), intent('x'), ctx)).toEqual({
      outcome: 'unknown',
      evidence: 'WordPress could not be asked: The provided password is an invalid application password.',
    });
  });
});
