import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createFacebookPublisher } from './facebook-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const PAGE = '546349135390552';
const POST = '546349135390552_1116689038356556';

const api = useFakePlatformApi();
const connection = liveConnection('facebook', { externalId: PAGE, accountName: 'heraldcoffee', accessToken: 'EAAPage-token' });

const publisher = () => publishing(createFacebookPublisher({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, videoBaseUrl: `${api.baseUrl}/video/v25.0` }));

describe('facebook publishing', () => {
  it('publishes a text post with its first URL as the link, then reads the permalink, leaving the first comment to delivery', async () => {
    api.on('POST', `/v25.0/${PAGE}/feed`, { json: f('feed-post-created') });
    api.on('GET', `/v25.0/${POST}`, { json: f('post-permalink') });

    const result = await publisher().publish(connection, {
      content: 'Our autumn menu is live: https://heraldcoffee.example/menu. See you soon',
      mediaUrls: [],
      settings: { firstComment: 'Which one will you try first?' },
    });

    expect(result).toEqual({ postedId: POST, permalink: 'https://www.facebook.com/546349135390552/posts/1116689038356556' });
    const [feed, permalink] = api.requests;
    // The first comment is delivery's (server/posts/delivery/first-comments.ts), not the publisher's.
    expect(api.requests).toHaveLength(2);
    expect(feed!.headers.authorization).toBe('Bearer EAAPage-token');
    expect(Object.fromEntries(feed!.form())).toEqual({
      message: 'Our autumn menu is live: https://heraldcoffee.example/menu. See you soon',
      link: 'https://heraldcoffee.example/menu',
    });
    expect(permalink!.query.get('fields')).toBe('permalink_url');
  });

  it('publishes one photo with the text as its message and answers the feed post id', async () => {
    api.on('POST', `/v25.0/${PAGE}/photos`, { json: f('photo-published') });
    api.on('GET', '/v25.0/546349135390552_1116692608356199', { json: f('post-permalink') });
    const result = await publisher().publish(connection, { content: 'Latte art', mediaUrls: ['https://cdn.herald.example/m/latte.jpg'], settings: {} });

    expect(result.postedId).toBe('546349135390552_1116692608356199');
    expect(Object.fromEntries(api.requests[0]!.form())).toEqual({ url: 'https://cdn.herald.example/m/latte.jpg', message: 'Latte art', published: 'true' });
  });

  it('publishes several photos unpublished first, then one feed post attaching them', async () => {
    let n = 0;
    api.on('POST', `/v25.0/${PAGE}/photos`, () => ({ json: { id: `11167000000000${++n}` } }));
    api.on('POST', `/v25.0/${PAGE}/feed`, { json: f('feed-post-created') });
    api.on('GET', `/v25.0/${POST}`, { json: f('post-permalink') });

    const result = await publisher().publish(connection, {
      content: 'Three new blends',
      mediaUrls: ['https://cdn.herald.example/m/1.jpg', 'https://cdn.herald.example/m/2.jpg', 'https://cdn.herald.example/m/3.jpg'],
      mediaKinds: ['image', 'image', 'image'],
      settings: {},
    });

    expect(result.postedId).toBe(POST);
    expect(api.calls('POST', `/v25.0/${PAGE}/photos`).map((r) => Object.fromEntries(r.form()))).toEqual([
      { url: 'https://cdn.herald.example/m/1.jpg', published: 'false' },
      { url: 'https://cdn.herald.example/m/2.jpg', published: 'false' },
      { url: 'https://cdn.herald.example/m/3.jpg', published: 'false' },
    ]);
    expect(Object.fromEntries(api.calls('POST', `/v25.0/${PAGE}/feed`)[0]!.form())).toEqual({
      message: 'Three new blends',
      'attached_media[0]': '{"media_fbid":"111670000000001"}',
      'attached_media[1]': '{"media_fbid":"111670000000002"}',
      'attached_media[2]': '{"media_fbid":"111670000000003"}',
    });
  });

  it('publishes a video by URL on the video host and turns its relative permalink into a full one', async () => {
    api.on('POST', `/video/v25.0/${PAGE}/videos`, { json: f('video-created') });
    api.on('GET', '/v25.0/1116695488355911', { json: f('video-permalink') });

    const result = await publisher().publish(connection, {
      content: 'Roasting day',
      mediaUrls: ['https://cdn.herald.example/m/roast'],
      mediaKinds: ['video'],
      settings: {},
    });

    expect(result).toEqual({ postedId: '1116695488355911', permalink: 'https://www.facebook.com/heraldcoffee/videos/1116695488355911/' });
    expect(Object.fromEntries(api.calls('POST', `/video/v25.0/${PAGE}/videos`)[0]!.form())).toEqual({
      file_url: 'https://cdn.herald.example/m/roast',
      description: 'Roasting day',
    });
  });
});

describe('facebook errors', () => {
  it('maps a Graph error to its message, verbatim', async () => {
    api.on('POST', `/v25.0/${PAGE}/feed`, { status: 400, json: f('error-duplicate') });
    const error = await failure(publisher().publish(connection, { content: 'Same again', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('(#506) Duplicate status message');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('passes the page throttle (code 32) on as a refusal, not an expired token', async () => {
    api.on('POST', `/v25.0/${PAGE}/feed`, { status: 400, json: f('error-page-throttled') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('(#32) Page request limit reached');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('raises TokenExpiredError for code 190', async () => {
    api.on('POST', `/v25.0/${PAGE}/photos`, { status: 400, json: f('error-token-expired') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/a.jpg'], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toMatch(/^Error validating access token: The session has been invalidated/);
  });

  it('refuses photos mixed with a video before calling Facebook', async () => {
    const error = await failure(
      publisher().publish(connection, { content: 'x', mediaUrls: ['https://cdn.herald.example/m/a.jpg', 'https://cdn.herald.example/m/b.mp4'], settings: {} }),
    );
    expect(error.message).toBe('A Facebook post takes either photos or one video, not both or several videos');
    expect(api.requests).toHaveLength(0);
  });
});
