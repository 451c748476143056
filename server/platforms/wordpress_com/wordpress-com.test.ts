// WordPress.com through its API host, against a local HTTPS fake with the documented shapes:
//   https://developer.wordpress.com/docs/api/getting-started/ (wp/v2 routes at /wp/v2/sites/{site}/…,
//     Authorization: Bearer) and https://developer.wordpress.org/rest-api/reference/ (the same
//     media, terms and posts payloads as a self-hosted site; errors { code, message, data })
//   https://developer.wordpress.com/docs/oauth2/ (a refused token: invalid_token)
//   https://developer.wordpress.com/docs/api/1.1/get/sites/%24site/stats/post/%24post_id/ (views)
//   https://developer.wordpress.com/docs/api/1.1/get/sites/%24site/posts/%24post_ID/ (like_count, discussion.comment_count)
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createWordpressComInsightsReader, createWordpressComPublisher, createWordpressComReconciler } from './wordpress-com';

const f = (name: string) => fixture(import.meta.dirname, name);
const wp = (name: string) => fixture(path.join(import.meta.dirname, '../wordpress'), name);
const api = useFakePlatformApi();
const TOKEN = 'wpcom-token-Qx7b2';
const SITE = '/wp/v2/sites/211489302';
const REST = '/rest/v1.1/sites/211489302';
const connection = () =>
  liveConnection('wordpress_com', {
    externalId: '211489302',
    accountName: 'news.heraldcoffee.example',
    accessToken: TOKEN,
    platformData: { siteId: '211489302', siteUrl: 'https://news.heraldcoffee.example' },
  });
const publisher = () => publishing(createWordpressComPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }));
const ctx = () => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-28T09:05:00Z') });

describe('WordPress.com publishing', () => {
  it('uploads the image to the site’s library and creates the post through the site-scoped wp/v2 routes, with the OAuth token', async () => {
    api.on('GET', '/media/latte.jpg', { headers: { 'content-type': 'image/jpeg' }, body: Buffer.from('JPEGBYTES') });
    api.on('POST', `${SITE}/media`, { status: 201, json: wp('media-created') });
    api.on('GET', `${SITE}/tags`, { json: [{ id: 40, name: 'latte' }] });
    api.on('POST', `${SITE}/posts`, { status: 201, json: { ...wp('post-created'), link: 'https://news.heraldcoffee.example/2026/11/28/latte-art/' } });

    const result = await publisher().publish(connection(), {
      content: 'Latte art in 30 seconds\n\nSteam the milk to 60 °C.',
      mediaUrls: [`${api.baseUrl}/media/latte.jpg`],
      mediaKinds: ['image'],
      settings: { tags: ['latte'] },
    });

    expect(result).toEqual({ postedId: '1842', permalink: 'https://news.heraldcoffee.example/2026/11/28/latte-art/' });
    const [upload] = api.calls('POST', `${SITE}/media`);
    expect(upload!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(upload!.headers['content-disposition']).toBe('attachment; filename="latte.jpg"');
    expect(api.calls('POST', `${SITE}/posts`)[0]!.json()).toEqual({
      title: 'Latte art in 30 seconds',
      content: '<p>Steam the milk to 60 °C.</p>',
      status: 'publish',
      featured_media: 1840,
      tags: [40],
    });
  });

  it('records WordPress.com’s refusal verbatim with its status', async () => {
    api.on('POST', `${SITE}/posts`, { status: 403, json: f('error-cannot-create') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Sorry, you are not allowed to create posts as this user.');
    expect(error.opts).toEqual({ status: 403 });
  });

  it('asks for a reconnect when the token is refused (the token does not expire, so there is nothing to refresh)', async () => {
    api.on('POST', `${SITE}/posts`, { status: 400, json: f('error-invalid-token') });
    const error = await failure(publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The OAuth2 token is invalid.');
  });

  it('waits out a 429, then creates the post once', async () => {
    api.on('POST', `${SITE}/posts`, { status: 429, headers: { 'retry-after': '0' }, body: 'Too Many Requests' }, { status: 201, json: wp('post-created') });
    expect((await publisher().publish(connection(), { content: 'Title\nBody', mediaUrls: [], settings: {} })).postedId).toBe('1842');
    expect(api.calls('POST', `${SITE}/posts`)).toHaveLength(2);
  });

  it('asks for a reconnect, calling nothing, when no site is stored', async () => {
    const error = await failure(publisher().publish({ ...connection(), platformData: {} }, { content: 'Title\nBody', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(api.requests).toHaveLength(0);
  });
});

describe('WordPress.com reconcile', () => {
  it('finds the post with the title sent among the site’s newest, through the site-scoped route', async () => {
    api.on('GET', `${SITE}/posts`, { headers: { 'x-wp-totalpages': '1' }, json: wp('posts-edit') });
    const outcome = await createWordpressComReconciler({ fetch: api.fetch, baseUrl: api.baseUrl }).reconcile(
      connection(),
      { idempotencyKey: 't', content: 'Latte art in 30 seconds\nSteam the milk.', mediaUrls: [], settings: {}, startedAt: new Date('2026-11-27T09:00:00Z') },
      ctx(),
    );
    expect(outcome).toMatchObject({ outcome: 'found', result: { postedId: '1842' } });
    expect(api.calls('GET', `${SITE}/posts`)[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});

describe('WordPress.com post results', () => {
  const reader = () => createWordpressComInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl });
  const ref = (postedId: string) => ({ postedId, publishedAt: new Date('2026-11-27T09:00:03Z') });

  it('reads views from the post’s statistics and likes and comments from the post', async () => {
    api.on('GET', `${REST}/posts/1842`, { json: f('post') });
    api.on('GET', `${REST}/stats/post/1842`, { json: f('post-stats') });
    const results = await reader().readPostMetrics(connection(), [ref('1842')], ctx());
    const result = results.get('1842')!;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.metrics.views).toEqual({ value: 412, reason: null, networkName: 'views' });
    expect(result.metrics.reactions).toEqual({ value: 23, reason: null, networkName: 'like_count' });
    expect(result.metrics.comments).toEqual({ value: 5, reason: null, networkName: 'discussion.comment_count' });
    expect(result.metrics.shares.value).toBeNull();
    expect(api.calls('GET', `${REST}/posts/1842`)[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('says a deleted post is gone rather than reading zeros', async () => {
    api.on('GET', `${REST}/posts/1843`, { status: 404, json: { error: 'unknown_post', message: 'Unknown post' } });
    expect((await reader().readPostMetrics(connection(), [ref('1843')], ctx())).get('1843')).toEqual({
      ok: false,
      reason: 'WordPress.com no longer has this post (deleted since)',
    });
    expect(api.calls('GET', `${REST}/stats/post/1843`)).toHaveLength(0);
  });

  it('asks for a reconnect when the token is refused', async () => {
    api.on('GET', `${REST}/posts/1842`, {
      status: 403,
      json: { error: 'authorization_required', message: 'An active access token must be used to query information about the current user.' },
    });
    await expect(reader().readPostMetrics(connection(), [ref('1842')], ctx())).rejects.toBeInstanceOf(TokenExpiredError);
  });
});
