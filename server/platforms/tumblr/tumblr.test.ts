// Tumblr against the documented API v2 shapes, served by the local HTTPS stand-in through the
// guarded client:
//   https://www.tumblr.com/docs/en/api/v2#posts---createreblog-a-post-neue-post-format (NPF
//     create, "User Uploaded Media", "Errors and Error Subcodes")
//   https://github.com/tumblr/docs/blob/master/npf-spec.md (text, image and video blocks)
//   https://www.tumblr.com/docs/en/api/v2#v2oauth2token---refresh-token-grant-request
//   https://www.tumblr.com/docs/en/api/v2#rate-limits (429 Limit Exceeded)
//   https://www.tumblr.com/docs/en/api/v2#posts--retrieve-published-posts (reconcile)
import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type PublishRequest, type TokenStore } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture, type RecordedRequest } from '../testing/fake-platform-api';
import { createTumblrPublisher, textBlocks, type TumblrOptions } from './tumblr-publisher';
import { createTumblrReconciler } from './tumblr-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const POST_ID = '1234567891234567';
const api = useFakePlatformApi();
const blogData = { blogName: 'heraldcoffee', blogUuid: 't:0aY0xL2Fi1OFJg4YxpmegQ' };
const connection = () =>
  liveConnection('tumblr', { externalId: 't:0aY0xL2Fi1OFJg4YxpmegQ', accountName: 'heraldcoffee', accessToken: 'tumblr_access_0', platformData: blogData });
const publisher = (extra: Partial<TumblrOptions> = {}, tokens?: TokenStore) =>
  publishing(createTumblrPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra }), tokens);
const POSTS = '/v2/blog/heraldcoffee/posts';
const JPEG = Buffer.from('\xff\xd8\xff\xe0 pretend jpeg', 'latin1');
const MP4 = Buffer.from('\x00\x00\x00\x18ftypmp42 pretend video', 'latin1');

/** The parts of a multipart/form-data request, by name. */
function parts(request: RecordedRequest): Map<string, { headers: string; body: Buffer }> {
  const boundary = /boundary=(.+)$/.exec(String(request.headers['content-type']))![1]!;
  const found = new Map<string, { headers: string; body: Buffer }>();
  const raw = request.body.toString('latin1');
  for (const chunk of raw.split(`--${boundary}`).slice(1, -1)) {
    const split = chunk.indexOf('\r\n\r\n');
    const headers = chunk.slice(2, split);
    const name = /name="([^"]+)"/.exec(headers)![1]!;
    found.set(name, { headers, body: Buffer.from(chunk.slice(split + 4, -2), 'latin1') });
  }
  return found;
}

const textPost = (settings: PublishRequest<'tumblr'>['settings'] = {}): PublishRequest<'tumblr'> => ({
  content: 'Our winter blend is back.\nRoasted on Tuesday, in the shop from Friday.',
  mediaUrls: [],
  settings,
});

describe('Tumblr publishing', () => {
  it('uploads an image and a video as parts named by their blocks’ identifiers, with the text, tags and state', async () => {
    api.on('GET', '/media/beans.jpg', { headers: { 'content-type': 'image/jpeg' }, body: JPEG });
    api.on('GET', '/media/pour.mp4', { headers: { 'content-type': 'video/mp4' }, body: MP4 });
    api.on('POST', POSTS, { status: 201, json: f('post-created') });
    const result = await publisher().publish(connection(), {
      ...textPost({ tags: ['coffee', 'winter blend'], altText: 'A bag of beans' }),
      mediaUrls: [`${api.baseUrl}/media/beans.jpg`, `${api.baseUrl}/media/pour.mp4`],
      mediaKinds: ['image', 'video'],
    });

    expect(result).toEqual({ postedId: POST_ID, permalink: `https://heraldcoffee.tumblr.com/post/${POST_ID}` });
    const [post] = api.calls('POST', POSTS);
    expect(post!.headers.authorization).toBe('Bearer tumblr_access_0');
    expect(post!.headers['user-agent']).toBe('Herald');
    expect(post!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const sent = parts(post!);
    expect([...sent.keys()]).toEqual(['json', 'media-1', 'media-2']);
    expect(sent.get('json')!.headers).toContain('Content-Type: application/json');
    expect(JSON.parse(sent.get('json')!.body.toString('utf8'))).toEqual({
      content: [
        { type: 'text', text: 'Our winter blend is back.' },
        { type: 'text', text: 'Roasted on Tuesday, in the shop from Friday.' },
        { type: 'image', media: [{ type: 'image/jpeg', identifier: 'media-1' }], alt_text: 'A bag of beans' },
        { type: 'video', provider: 'tumblr', media: { type: 'video/mp4', identifier: 'media-2' } },
      ],
      state: 'published',
      tags: 'coffee,winter blend',
    });
    expect(sent.get('media-1')!.headers).toContain('filename="beans.jpg"');
    expect(sent.get('media-1')!.body.equals(JPEG)).toBe(true);
    expect(sent.get('media-2')!.headers).toContain('Content-Type: video/mp4');
    expect(sent.get('media-2')!.body.equals(MP4)).toBe(true);
  });

  it('sends a text post as JSON, as a draft when asked', async () => {
    api.on('POST', POSTS, { status: 201, json: f('post-created') });
    await publisher().publish(connection(), textPost({ state: 'draft' }));
    const [post] = api.calls('POST', POSTS);
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.json()).toEqual({
      content: [
        { type: 'text', text: 'Our winter blend is back.' },
        { type: 'text', text: 'Roasted on Tuesday, in the shop from Friday.' },
      ],
      state: 'draft',
    });
  });

  it('passes Tumblr’s refusal on verbatim', async () => {
    api.on('POST', POSTS, { status: 400, json: f('error-npf-invalid') });
    const error = await failure(publisher().publish(connection(), textPost()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe("'content' must be an array'");
    expect(error.opts).toEqual({ status: 400 });
  });

  it('waits out a 429 whose wait Tumblr states, then posts once; reports one without a wait verbatim', async () => {
    api.on('POST', POSTS, { status: 429, headers: { 'retry-after': '0' }, json: f('error-rate-limit') }, { status: 201, json: f('post-created') });
    expect((await publisher().publish(connection(), textPost())).postedId).toBe(POST_ID);
    expect(api.calls('POST', POSTS)).toHaveLength(2);

    api.on('POST', POSTS, { status: 429, json: f('error-rate-limit') });
    const error = await failure(publisher().publish(connection(), textPost()));
    expect(error.message).toBe('Limit Exceeded');
    expect(error.opts).toEqual({ status: 429 });
  });

  it('refuses what Tumblr would refuse before calling it', async () => {
    const twoVideos = await failure(
      publisher().publish(connection(), {
        ...textPost(),
        mediaUrls: ['https://cdn.herald.example/a.mp4', 'https://cdn.herald.example/b.mp4'],
        mediaKinds: ['video', 'video'],
      }),
    );
    expect(twoVideos.message).toBe('A Tumblr post takes at most 1 uploaded video');
    const empty = await failure(publisher().publish(connection(), { content: ' \n ', mediaUrls: [], settings: {} }));
    expect(empty.message).toBe('A Tumblr post needs text or media');
    expect(api.requests).toHaveLength(0);
  });

  it('splits the text into NPF text blocks: one a line, none longer than 4,096 code points', () => {
    const long = '😻'.repeat(4100);
    expect(textBlocks(`a\n\nb\r\n${long}`)).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
      { type: 'text', text: '😻'.repeat(4096) },
      { type: 'text', text: '😻'.repeat(4) },
    ]);
  });
});

describe('Tumblr token refresh', () => {
  const account = (tokenExpiresAt: Date) =>
    storedConnection('tumblr', {
      externalId: 't:0aY0xL2Fi1OFJg4YxpmegQ',
      accountName: 'heraldcoffee',
      accessToken: 'tumblr_access_1',
      refreshToken: 'tumblr_refresh_1',
      tokenExpiresAt,
    });
  const app = { clientId: 'consumer-key', clientSecret: 'consumer-secret' };

  it('refreshes after a 401, sends the post again with the new token and keeps the new refresh token', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() + 600_000));
    api.on('POST', POSTS, { status: 401, json: f('error-unauthorized') }, { status: 201, json: f('post-created') });
    api.on('POST', '/v2/oauth2/token', { json: f('token-refreshed') });

    const result = await publisher(app, tokens).publish({ ...row, platformData: blogData }, textPost());

    expect(result.postedId).toBe(POST_ID);
    const [refresh] = api.calls('POST', '/v2/oauth2/token');
    expect(Object.fromEntries(refresh!.form())).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'tumblr_refresh_1',
      client_id: 'consumer-key',
      client_secret: 'consumer-secret',
    });
    expect(api.calls('POST', POSTS).map((r) => r.headers.authorization)).toEqual(['Bearer tumblr_access_1', 'Bearer tumblr_access_2']);
    expect(tokens.get(row.id)).toMatchObject({ accessToken: 'tumblr_access_2', refreshToken: 'tumblr_refresh_2' });
    expect(tokens.get(row.id)!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 2_400_000);
  });

  it('refreshes an expired token before posting', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/v2/oauth2/token', { json: f('token-refreshed') });
    api.on('POST', POSTS, { status: 201, json: f('post-created') });
    await publisher(app, tokens).publish({ ...row, platformData: blogData }, textPost());
    expect(api.calls('POST', POSTS).map((r) => r.headers.authorization)).toEqual(['Bearer tumblr_access_2']);
  });

  it('asks for a reconnect when Tumblr refuses the refresh token, in its words', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/v2/oauth2/token', { status: 401, json: { error: 'invalid_grant', error_description: 'The refresh token is invalid.' } });
    const error = await failure(publisher(app, tokens).publish({ ...row, platformData: blogData }, textPost()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The refresh token is invalid.');
    expect(api.calls('POST', POSTS)).toHaveLength(0);
  });

  it('reports a refused token as a connection to reconnect when no app can refresh it', async () => {
    api.on('POST', POSTS, { status: 401, json: f('error-unauthorized') });
    const error = await failure(publisher().publish(connection(), textPost()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Unable to authorize');
  });
});

describe('Tumblr reconcile', () => {
  const intent = (extra = {}) => ({
    idempotencyKey: 'k',
    content: 'Our winter blend is back.\nRoasted on Tuesday, in the shop from Friday.',
    mediaUrls: [],
    settings: {},
    startedAt: new Date('2026-11-27T09:30:00Z'),
    ...extra,
  });
  const ctx = () => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T10:00:00Z') });
  const reconciler = () => createTumblrReconciler({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '' });

  it('finds the post created since the attempt began with the text sent', async () => {
    api.on('GET', POSTS, { json: f('blog-posts') });
    const settled = await reconciler().reconcile(connection(), intent(), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: POST_ID, permalink: `https://heraldcoffee.tumblr.com/post/${POST_ID}` },
      evidence: expect.stringContaining(POST_ID),
    });
    const [read] = api.requests;
    expect(Object.fromEntries(read!.query)).toEqual({ npf: 'true', limit: '20' });
    expect(read!.headers.authorization).toBe('Bearer tumblr_access_0');
    expect(api.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('is absent when no post on the blog carries the text', async () => {
    api.on('GET', POSTS, { json: f('blog-posts') });
    const settled = await reconciler().reconcile(connection(), intent({ content: 'Something else entirely' }), ctx());
    expect(settled.outcome).toBe('absent');
  });

  it('reads the drafts for a draft', async () => {
    api.on('GET', `${POSTS}/draft`, { json: f('blog-posts') });
    const settled = await reconciler().reconcile(connection(), intent({ settings: { state: 'draft' } }), ctx());
    expect(settled.outcome).toBe('found');
    expect(api.requests.map((r) => r.path)).toEqual([`${POSTS}/draft`]);
  });

  it('cannot tell when Tumblr cannot be asked', async () => {
    api.on('GET', POSTS, { status: 503, json: { meta: { status: 503, msg: 'Service Unavailable' }, response: [] } });
    const settled = await reconciler().reconcile(connection(), intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: 'Tumblr could not be asked: Service Unavailable' });
  });
});
