import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type TokenStore } from '../publisher';
import { failure, liveConnection, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture, type RecordedRequest } from '../testing/fake-platform-api';
import { createTwitterPublisher, type TwitterOptions } from './twitter-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const TWEET = '1945880548472328192';
const VIDEO_ID = '1880028106020515841';
const IMAGE_BYTES = Buffer.from('\xff\xd8\xff\xe0 jpeg', 'latin1');

const api = useFakePlatformApi();
const connection = liveConnection('twitter', { externalId: '2244994945', accountName: 'heraldcoffee', accessToken: 'x-user-token' });

const publisher = (extra: Partial<TwitterOptions> = {}, tokens?: TokenStore) =>
  publishing(createTwitterPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', pollIntervalMs: 0, pollAttempts: 3, ...extra }), tokens);
const media = (name: string) => `${api.baseUrl}/media/${name}`;

/** The parts of a multipart/form-data request, by name. */
function multipart(request: RecordedRequest): Record<string, { value: Buffer; contentType?: string }> {
  const boundary = /boundary=(.+)$/.exec(String(request.headers['content-type']))![1]!;
  const parts: Record<string, { value: Buffer; contentType?: string }> = {};
  const raw = request.body.toString('latin1');
  for (const section of raw.split(`--${boundary}`).slice(1, -1)) {
    const [head, ...rest] = section.replace(/^\r\n/, '').split('\r\n\r\n');
    const name = /name="([^"]+)"/.exec(head!)![1]!;
    const contentType = /Content-Type: (.+)/i.exec(head!)?.[1];
    parts[name] = { value: Buffer.from(rest.join('\r\n\r\n').replace(/\r\n$/, ''), 'latin1'), contentType };
  }
  return parts;
}

describe('x publishing', () => {
  it('posts text with reply and quote settings and links to the post', async () => {
    api.on('POST', '/2/tweets', { status: 201, json: f('tweet-created') });
    const result = await publisher().publish(connection, {
      content: 'Fresh batch at 7am',
      mediaUrls: [],
      settings: { replyTo: '1940000000000000001', quoteTweet: '1940000000000000002' },
    });

    expect(result).toEqual({ postedId: TWEET, permalink: `https://x.com/heraldcoffee/status/${TWEET}` });
    const [post] = api.requests;
    expect(post!.headers.authorization).toBe('Bearer x-user-token');
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.json()).toEqual({
      text: 'Fresh batch at 7am',
      reply: { in_reply_to_tweet_id: '1940000000000000001' },
      quote_tweet_id: '1940000000000000002',
    });
  });

  it('uploads an image with the simple upload and attaches its media id', async () => {
    api.on('GET', '/media/beans.jpg', { headers: { 'content-type': 'image/jpeg' }, body: IMAGE_BYTES });
    api.on('POST', '/2/media/upload', { json: f('media-uploaded-image') });
    api.on('POST', '/2/tweets', { status: 201, json: f('tweet-created') });

    await publisher().publish(connection, { content: 'Beans', mediaUrls: [media('beans.jpg')], mediaKinds: ['image'], settings: {} });

    const upload = api.calls('POST', '/2/media/upload')[0]!;
    expect(upload.headers.authorization).toBe('Bearer x-user-token');
    const parts = multipart(upload);
    expect(parts.media!.value.equals(IMAGE_BYTES)).toBe(true);
    expect(parts.media!.contentType).toBe('image/jpeg');
    expect(parts.media_category!.value.toString()).toBe('tweet_image');
    expect(api.calls('POST', '/2/tweets')[0]!.json()).toEqual({ text: 'Beans', media: { media_ids: ['1880028106020515840'] } });
  });

  it('uploads a video in chunks (initialize, append, finalize) and waits for processing', async () => {
    api.on('GET', '/media/clip.mp4', { headers: { 'content-type': 'video/mp4' }, body: Buffer.from('0123456789') });
    api.on('POST', '/2/media/upload/initialize', { json: f('media-initialized') });
    api.on('POST', `/2/media/upload/${VIDEO_ID}/append`, { json: f('media-appended') });
    api.on('POST', `/2/media/upload/${VIDEO_ID}/finalize`, { json: f('media-finalized-pending') });
    api.on('GET', '/2/media/upload', { json: f('media-status-in-progress') }, { json: f('media-status-succeeded') });
    api.on('POST', '/2/tweets', { status: 201, json: f('tweet-created') });

    await publisher().publish(connection, { content: 'Roast', mediaUrls: [media('clip.mp4')], mediaKinds: ['video'], settings: {} });

    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /media/clip.mp4',
      'POST /2/media/upload/initialize',
      `POST /2/media/upload/${VIDEO_ID}/append`,
      `POST /2/media/upload/${VIDEO_ID}/finalize`,
      'GET /2/media/upload',
      'GET /2/media/upload',
      'POST /2/tweets',
    ]);
    expect(api.calls('POST', '/2/media/upload/initialize')[0]!.json()).toEqual({ media_type: 'video/mp4', total_bytes: 10, media_category: 'tweet_video' });
    const append = multipart(api.calls('POST', `/2/media/upload/${VIDEO_ID}/append`)[0]!);
    expect(append.segment_index!.value.toString()).toBe('0');
    expect(append.media!.value.toString()).toBe('0123456789');
    expect(Object.fromEntries(api.calls('GET', '/2/media/upload')[0]!.query)).toEqual({ command: 'STATUS', media_id: VIDEO_ID });
    expect(api.calls('POST', '/2/tweets')[0]!.json().media).toEqual({ media_ids: [VIDEO_ID] });
  });
});

describe('x errors', () => {
  it('maps `detail` verbatim', async () => {
    api.on('POST', '/2/tweets', { status: 403, json: f('error-duplicate') });
    const error = await failure(publisher().publish(connection, { content: 'Again', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('You are not allowed to create a Tweet with duplicate content.');
    expect(error.opts).toEqual({ status: 403 });
  });

  it('prefers errors[0].message, the precise one, on invalid requests', async () => {
    api.on('POST', '/2/tweets', { status: 400, json: f('error-invalid-request') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [], settings: { quoteTweet: '12' } }));
    expect(error.message).toBe('The `quote_tweet_id` query parameter value [12] is not a valid post id');
  });

  it('reports failed media processing with X’s reason, without posting', async () => {
    api.on('GET', '/media/clip.mp4', { headers: { 'content-type': 'video/mp4' }, body: Buffer.from('0123456789') });
    api.on('POST', '/2/media/upload/initialize', { json: f('media-initialized') });
    api.on('POST', `/2/media/upload/${VIDEO_ID}/append`, { json: f('media-appended') });
    api.on('POST', `/2/media/upload/${VIDEO_ID}/finalize`, { json: f('media-finalized-pending') });
    api.on('GET', '/2/media/upload', { json: f('media-status-failed') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [media('clip.mp4')], mediaKinds: ['video'], settings: {} }));
    expect(error.message).toBe('Invalid or Unsupported media, Reason: UnsupportedMedia.');
    expect(api.calls('POST', '/2/tweets')).toHaveLength(0);
  });

  it('passes a 429 on with its status', async () => {
    api.on('POST', '/2/tweets', { status: 429, headers: { 'x-rate-limit-reset': '1785417510' }, json: f('error-rate-limit') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Too Many Requests');
    expect(error.opts).toEqual({ status: 429 });
  });

  it('raises TokenExpiredError for 401 when there is no way to refresh', async () => {
    api.on('POST', '/2/tweets', { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Unauthorized');
  });
});

describe('x token refresh', () => {
  const account = (tokenExpiresAt: Date | null, refreshToken: string | null = 'x-refresh') =>
    storedConnection('twitter', { externalId: '2244994945', accountName: 'heraldcoffee', accessToken: 'x-old', refreshToken, tokenExpiresAt });

  it('refreshes an expired token first (Basic auth for a confidential client) and stores the rotated pair', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 60_000));
    api.on('POST', '/2/oauth2/token', { json: f('token-refreshed') });
    api.on('POST', '/2/tweets', { status: 201, json: f('tweet-created') });

    await publisher({ clientId: 'x-client', clientSecret: 'x-secret' }, tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} });

    const refresh = api.calls('POST', '/2/oauth2/token')[0]!;
    expect(refresh.headers.authorization).toBe(`Basic ${Buffer.from('x-client:x-secret').toString('base64')}`);
    expect(Object.fromEntries(refresh.form())).toEqual({ refresh_token: 'x-refresh', grant_type: 'refresh_token', client_id: 'x-client' });
    expect(api.calls('POST', '/2/tweets')[0]!.headers.authorization).toBe(`Bearer ${f('token-refreshed').access_token}`);
    const stored = tokens.get(row.id)!;
    expect(stored.accessToken).toBe(f('token-refreshed').access_token);
    expect(stored.refreshToken).toBe(f('token-refreshed').refresh_token);
    expect(Math.abs(stored.expiresAt!.getTime() - (Date.now() + 7_200_000))).toBeLessThan(60_000);
  });

  it('refreshes after a 401 and retries once (public client: no Basic auth)', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() + 3_600_000));
    api.on('POST', '/2/tweets', { status: 401, json: f('error-unauthorized') }, { status: 201, json: f('tweet-created') });
    api.on('POST', '/2/oauth2/token', { json: f('token-refreshed') });

    const result = await publisher({ clientId: 'x-client', clientSecret: '' }, tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} });

    expect(result.postedId).toBe(TWEET);
    expect(api.calls('POST', '/2/oauth2/token')[0]!.headers.authorization).toBeUndefined();
    expect(api.calls('POST', '/2/tweets').map((r) => r.headers.authorization)).toEqual(['Bearer x-old', `Bearer ${f('token-refreshed').access_token}`]);
  });

  it('uses a token another delivery already refreshed instead of refreshing again', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() + 3_600_000));
    tokens.set(row.id, { ...tokens.get(row.id)!, accessToken: 'x-fresh-from-elsewhere' });
    api.on('POST', '/2/tweets', { status: 401, json: f('error-unauthorized') }, { status: 201, json: f('tweet-created') });

    await publisher({ clientId: 'x-client' }, tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} });

    expect(api.calls('POST', '/2/oauth2/token')).toHaveLength(0);
    expect(api.calls('POST', '/2/tweets')[1]!.headers.authorization).toBe('Bearer x-fresh-from-elsewhere');
  });

  it('raises TokenExpiredError with X’s description when the refresh token is refused', async () => {
    const { connection: row, tokens } = account(null);
    api.on('POST', '/2/tweets', { status: 401, json: f('error-unauthorized') });
    api.on('POST', '/2/oauth2/token', { status: 400, json: f('token-refresh-refused') });
    const error = await failure(publisher({ clientId: 'x-client' }, tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Value passed for the token was invalid.');
  });

  it('raises the platform’s rejection when no refresh token is stored', async () => {
    const { connection: row, tokens } = account(null, null);
    api.on('POST', '/2/tweets', { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher({ clientId: 'x-client' }, tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Unauthorized');
    expect(api.calls('POST', '/2/oauth2/token')).toHaveLength(0);
  });
});
