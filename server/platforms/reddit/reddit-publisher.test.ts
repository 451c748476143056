// The Reddit adapter against the documented requests and answers:
//   https://www.reddit.com/dev/api#POST_api_submit (api_type=json answers and errors)
//   https://www.reddit.com/dev/api#POST_api_comment
//   https://github.com/reddit-archive/reddit/wiki/OAuth2 (refresh, User-Agent)
//   https://support.reddithelp.com/hc/en-us/articles/16160319875092 (X-Ratelimit-* headers)
// The media asset upload is not in the public reference; its shapes are those Reddit's own
// clients receive.
import { describe, expect, it, vi } from 'vitest';
import { TokenExpiredError, type PublishRequest, type TokenStore } from '../publisher';
import { failure, liveConnection, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createRedditPublisher, type RedditOptions } from './reddit-publisher';
import { REDDIT_DEFAULT_USER_AGENT } from './reddit-api';

const f = (name: string) => fixture(import.meta.dirname, name);
const IMAGE_BYTES = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8]);
const VIDEO_BYTES = Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 9, 8, 7, 6]);

const api = useFakePlatformApi();
const connection = liveConnection('reddit', {
  externalId: 't2_1w72',
  accountName: 'u/heraldcoffee',
  accessToken: 'reddit-current',
  platformData: { username: 'heraldcoffee' },
});

const publisher = (extra: Partial<RedditOptions> = {}, tokens?: TokenStore) =>
  publishing(
    createRedditPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', pollIntervalMs: 0, pollAttempts: 3, ...extra }),
    tokens,
  );

const post = (settings: Partial<PublishRequest<'reddit'>['settings']> = {}, extra: Partial<PublishRequest<'reddit'>> = {}): PublishRequest<'reddit'> => ({
  content: 'Dark chocolate, orange peel and a long finish. What are you brewing?',
  mediaUrls: [],
  settings: { subreddit: 'Coffee', title: 'Winter blend tasting notes', ...settings },
  ...extra,
});

describe('reddit publishing', () => {
  it('submits a text post with flair, nsfw and spoiler as a form, with a User-Agent', async () => {
    api.on('POST', '/api/submit', { json: f('submit-self') });
    const result = await publisher().publish(
      connection,
      post({ subreddit: 'r/Coffee', flairId: 'b2c3d4e5-flair', flairText: 'Discussion', nsfw: false, spoiler: true }),
    );

    expect(result).toEqual({ postedId: 't3_1h2x3y4', permalink: 'https://www.reddit.com/r/Coffee/comments/1h2x3y4/winter_blend_tasting_notes/' });
    const [submit] = api.calls('POST', '/api/submit');
    expect(submit!.headers.authorization).toBe('bearer reddit-current');
    expect(submit!.headers['user-agent']).toBe(REDDIT_DEFAULT_USER_AGENT);
    expect(Object.fromEntries(submit!.form())).toEqual({
      api_type: 'json',
      kind: 'self',
      sr: 'Coffee',
      title: 'Winter blend tasting notes',
      text: 'Dark chocolate, orange peel and a long finish. What are you brewing?',
      flair_id: 'b2c3d4e5-flair',
      flair_text: 'Discussion',
      nsfw: 'false',
      spoiler: 'true',
      resubmit: 'true',
      sendreplies: 'true',
    });
  });

  it('submits a link post and adds the text as the first comment', async () => {
    api.on('POST', '/api/submit', { json: f('submit-self') });
    api.on('POST', '/api/comment', { json: { json: { errors: [], data: { things: [] } } } });
    await publisher().publish(connection, post({ url: 'https://herald.example/winter-blend' }));
    const form = Object.fromEntries(api.calls('POST', '/api/submit')[0]!.form());
    expect(form).toMatchObject({ kind: 'link', url: 'https://herald.example/winter-blend' });
    expect(form.text).toBeUndefined();
    expect(Object.fromEntries(api.calls('POST', '/api/comment')[0]!.form())).toEqual({
      api_type: 'json',
      thing_id: 't3_1h2x3y4',
      text: 'Dark chocolate, orange peel and a long finish. What are you brewing?',
    });
  });

  it('uploads an image through the media asset lease, submits kind=image and finds the post among the newest', async () => {
    api.on('GET', '/media/beans.jpg', { headers: { 'content-type': 'image/jpeg' }, body: IMAGE_BYTES });
    api.on('POST', '/api/media/asset.json', () => ({
      json: { ...f('media-asset'), args: { ...f('media-asset').args, action: `//${api.baseUrl.replace('https://', '')}/bucket` } },
    }));
    api.on('POST', '/bucket', {
      status: 201,
      headers: { 'content-type': 'application/xml' },
      body: '<PostResponse><Key>rte_images/1x6tb3v2kzsc1</Key></PostResponse>',
    });
    api.on('POST', '/api/submit', { json: f('submit-image') });
    api.on('GET', '/user/heraldcoffee/submitted', { json: { kind: 'Listing', data: { children: [] } } }, { json: f('user-submitted') });
    api.on('POST', '/api/comment', { json: { json: { errors: [], data: { things: [] } } } });

    const result = await publisher().publish(
      connection,
      post({ title: 'Our winter beans' }, { mediaUrls: [`${api.baseUrl}/media/beans.jpg`], mediaKinds: ['image'] }),
    );

    expect(result).toEqual({ postedId: 't3_1h2x9zz', permalink: 'https://www.reddit.com/r/Coffee/comments/1h2x9zz/our_winter_beans/' });
    expect(Object.fromEntries(api.calls('POST', '/api/media/asset.json')[0]!.form())).toEqual({ filepath: 'beans.jpg', mimetype: 'image/jpeg' });
    const [upload] = api.calls('POST', '/bucket');
    const fields = [...upload!.text.matchAll(/form-data; name="([^"]+)"/g)].map((m) => m[1]);
    expect(fields).toEqual([...f('media-asset').args.fields.map((field: { name: string }) => field.name), 'file']);
    expect(upload!.body.includes(IMAGE_BYTES)).toBe(true);
    expect(Object.fromEntries(api.calls('POST', '/api/submit')[0]!.form())).toMatchObject({
      kind: 'image',
      url: `${api.baseUrl}/bucket/rte_images/1x6tb3v2kzsc1`,
    });
    expect(api.calls('GET', '/user/heraldcoffee/submitted')).toHaveLength(2);
  });

  it('uploads a video and its poster through asset leases, submits kind=video and finds the post once processed', async () => {
    const lease = (key: string, contentType: string, assetId: string) => ({
      json: {
        ...f('media-asset'),
        args: {
          action: `//${api.baseUrl.replace('https://', '')}/bucket`,
          fields: f('media-asset').args.fields.map((field: { name: string; value: string }) =>
            field.name === 'key' ? { ...field, value: key } : field.name === 'content-type' ? { ...field, value: contentType } : field,
          ),
        },
        asset: { ...f('media-asset').asset, asset_id: assetId },
      },
    });
    api.on('GET', '/media/pour.mp4', { headers: { 'content-type': 'video/mp4' }, body: VIDEO_BYTES });
    api.on('GET', '/media/pour-poster.jpg', { headers: { 'content-type': 'image/jpeg' }, body: IMAGE_BYTES });
    api.on(
      'POST',
      '/api/media/asset.json',
      () => lease('rte_videos/7q2wr8tm4kzsc1', 'video/mp4', '7q2wr8tm4kzsc1'),
      () => lease('rte_images/3p9xk2fh8kzsc1', 'image/jpeg', '3p9xk2fh8kzsc1'),
    );
    api.on('POST', '/bucket', { status: 201, headers: { 'content-type': 'application/xml' }, body: '<PostResponse></PostResponse>' });
    api.on('POST', '/api/submit', { json: f('submit-video') });
    // Still processing on the first two looks: not yet listed.
    api.on(
      'GET',
      '/user/heraldcoffee/submitted',
      { json: { kind: 'Listing', data: { children: [] } } },
      { json: f('user-submitted') },
      { json: f('user-submitted-video') },
    );
    api.on('POST', '/api/comment', { json: { json: { errors: [], data: { things: [] } } } });

    const result = await publisher({ pollAttempts: 5 }).publish(
      connection,
      post(
        { title: 'Pouring the winter blend', posterUrl: `${api.baseUrl}/media/pour-poster.jpg`, flairId: 'b2c3d4e5-flair', nsfw: false, spoiler: false },
        { mediaUrls: [`${api.baseUrl}/media/pour.mp4`], mediaKinds: ['video'] },
      ),
    );

    expect(result).toEqual({ postedId: 't3_1h2xv1d', permalink: 'https://www.reddit.com/r/Coffee/comments/1h2xv1d/pouring_the_winter_blend/' });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /media/pour.mp4',
      'GET /media/pour-poster.jpg',
      'POST /api/media/asset.json',
      'POST /bucket',
      'POST /api/media/asset.json',
      'POST /bucket',
      'POST /api/submit',
      'GET /user/heraldcoffee/submitted',
      'GET /user/heraldcoffee/submitted',
      'GET /user/heraldcoffee/submitted',
      'POST /api/comment',
    ]);
    const [videoLease, posterLease] = api.calls('POST', '/api/media/asset.json');
    expect(Object.fromEntries(videoLease!.form())).toEqual({ filepath: 'pour.mp4', mimetype: 'video/mp4' });
    expect(Object.fromEntries(posterLease!.form())).toEqual({ filepath: 'pour-poster.jpg', mimetype: 'image/jpeg' });
    const [videoUpload, posterUpload] = api.calls('POST', '/bucket');
    expect(videoUpload!.text).toContain('rte_videos/7q2wr8tm4kzsc1');
    expect(videoUpload!.body.includes(VIDEO_BYTES)).toBe(true);
    expect(posterUpload!.text).toContain('rte_images/3p9xk2fh8kzsc1');
    expect(posterUpload!.body.includes(IMAGE_BYTES)).toBe(true);
    expect(Object.fromEntries(api.calls('POST', '/api/submit')[0]!.form())).toEqual({
      api_type: 'json',
      kind: 'video',
      sr: 'Coffee',
      title: 'Pouring the winter blend',
      url: `${api.baseUrl}/bucket/rte_videos/7q2wr8tm4kzsc1`,
      video_poster_url: `${api.baseUrl}/bucket/rte_images/3p9xk2fh8kzsc1`,
      flair_id: 'b2c3d4e5-flair',
      nsfw: 'false',
      spoiler: 'false',
      resubmit: 'true',
      sendreplies: 'true',
    });
    expect(Object.fromEntries(api.calls('POST', '/api/comment')[0]!.form())).toMatchObject({ thing_id: 't3_1h2xv1d' });
  });

  it('records the video asset id with no link when the video post is not listed within the polls', async () => {
    api.on('GET', '/media/pour.mp4', { headers: { 'content-type': 'video/mp4' }, body: VIDEO_BYTES });
    api.on('GET', '/media/pour-poster.jpg', { headers: { 'content-type': 'image/jpeg' }, body: IMAGE_BYTES });
    api.on('POST', '/api/media/asset.json', () => ({
      json: { ...f('media-asset'), args: { ...f('media-asset').args, action: `//${api.baseUrl.replace('https://', '')}/bucket` } },
    }));
    api.on('POST', '/bucket', { status: 201, body: '' });
    api.on('POST', '/api/submit', { json: f('submit-video') });
    api.on('GET', '/user/heraldcoffee/submitted', { json: f('user-submitted') });

    const result = await publisher({ pollAttempts: 4 }).publish(
      connection,
      post(
        { title: 'Pouring the winter blend', posterUrl: `${api.baseUrl}/media/pour-poster.jpg` },
        { mediaUrls: [`${api.baseUrl}/media/pour.mp4`], mediaKinds: ['video'] },
      ),
    );

    expect(result).toEqual({ postedId: '1x6tb3v2kzsc1', permalink: null });
    expect(api.calls('GET', '/user/heraldcoffee/submitted')).toHaveLength(4);
    expect(api.calls('POST', '/api/comment')).toHaveLength(0);
  });

  it('waits as long as X-Ratelimit-Reset says when a 429 has no Retry-After', async () => {
    api.on(
      'POST',
      '/api/submit',
      { status: 429, headers: { 'x-ratelimit-used': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' }, json: f('error-rate-limited') },
      { json: f('submit-self') },
    );
    const started = Date.now();
    const result = await publisher().publish(connection, post());
    expect(result.postedId).toBe('t3_1h2x3y4');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(api.calls('POST', '/api/submit')).toHaveLength(2);
  });
});

describe('reddit errors', () => {
  it('records json.errors verbatim, even on HTTP 200', async () => {
    api.on('POST', '/api/submit', { json: f('error-subreddit-noexist') });
    const error = await failure(publisher().publish(connection, post({ subreddit: 'nosuchsubreddit123' })));
    expect(error.message).toBe("SUBREDDIT_NOEXIST: that subreddit doesn't exist");
    expect(error.opts).toEqual({ status: 200 });
  });

  it('refuses a video without a poster image before calling Reddit or reading the file', async () => {
    const error = await failure(publisher().publish(connection, post({}, { mediaUrls: [`${api.baseUrl}/media/pour.mp4`], mediaKinds: ['video'] })));
    expect(error.message).toBe('A Reddit video post needs a poster image (platformSettings.reddit.posterUrl)');
    expect(api.requests).toHaveLength(0);
  });
});

describe('reddit token refresh', () => {
  it('refreshes an expired token with Basic auth and the User-Agent, then submits', async () => {
    vi.stubEnv('REDDIT_USER_AGENT', 'web:herald-test:1.0 (by /u/heraldcoffee)');
    try {
      const { connection: row, tokens } = storedConnection('reddit', {
        externalId: 't2_1w72',
        accountName: 'u/heraldcoffee',
        accessToken: 'reddit-old',
        refreshToken: '12345-refresh',
        tokenExpiresAt: new Date(Date.now() - 1000),
      });
      api.on('POST', '/api/v1/access_token', { json: f('token-refreshed') });
      api.on('POST', '/api/submit', { json: f('submit-self') });

      await publisher({ clientId: 'p-jcoLKBynTLew', clientSecret: 'reddit-secret', tokenUrl: `${api.baseUrl}/api/v1/access_token` }, tokens).publish(
        row,
        post(),
      );

      const [refresh] = api.calls('POST', '/api/v1/access_token');
      expect(refresh!.headers.authorization).toBe(`Basic ${Buffer.from('p-jcoLKBynTLew:reddit-secret').toString('base64')}`);
      expect(refresh!.headers['user-agent']).toBe('web:herald-test:1.0 (by /u/heraldcoffee)');
      expect(Object.fromEntries(refresh!.form())).toEqual({ grant_type: 'refresh_token', refresh_token: '12345-refresh' });
      expect(api.calls('POST', '/api/submit')[0]!.headers.authorization).toBe('bearer eyJhbGciOiJSUzI1NiIs-refreshed');
      expect(tokens.get(row.id)?.accessToken).toBe('eyJhbGciOiJSUzI1NiIs-refreshed');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('raises TokenExpiredError for a 401 when the app cannot refresh', async () => {
    api.on('POST', '/api/submit', { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher().publish(connection, post()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Unauthorized');
  });
});
