import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type TokenStore } from '../publisher';
import { failure, liveConnection, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createLinkedInPublisher, type LinkedInOptions } from './linkedin-publisher';
import { toLittleText } from './little-text';

const f = (name: string) => fixture(import.meta.dirname, name);
const SHARE = 'urn:li:share:7210987654321098752';
const IMAGE_BYTES = Buffer.from('\xff\xd8\xff\xe0 fake jpeg bytes', 'latin1');
const VIDEO_BYTES = Buffer.from('0123456789');

const api = useFakePlatformApi();
const connection = liveConnection('linkedin', { externalId: '8675309', accountName: 'ada-herald', accessToken: 'AQV-linkedin-token' });

const publisher = (extra: Partial<LinkedInOptions> = {}, tokens?: TokenStore) =>
  publishing(
    createLinkedInPublisher({
      fetch: api.fetch,
      baseUrl: api.baseUrl,
      oauthBaseUrl: `${api.baseUrl}/oauth/v2`,
      version: '202605',
      clientId: '',
      clientSecret: '',
      pollIntervalMs: 0,
      pollAttempts: 3,
      ...extra,
    }),
    tokens,
  );

const media = (name: string) => `${api.baseUrl}/media/${name}`;

function postCreated() {
  api.on('POST', '/rest/posts', { status: 201, headers: { 'x-restli-id': SHARE }, body: '' });
}

describe('linkedin publishing', () => {
  it('creates a text post with the versioned headers, escaped commentary and the x-restli-id as the post id', async () => {
    postCreated();
    const result = await publisher().publish(connection, { content: 'Hiring (remote) @ Herald #jobs', mediaUrls: [], settings: {} });

    expect(result).toEqual({ postedId: SHARE, permalink: `https://www.linkedin.com/feed/update/${SHARE}/` });
    const [post] = api.requests;
    expect(post!.headers).toMatchObject({
      authorization: 'Bearer AQV-linkedin-token',
      'linkedin-version': '202605',
      'x-restli-protocol-version': '2.0.0',
      'content-type': 'application/json',
    });
    expect(post!.json()).toEqual({
      author: 'urn:li:person:8675309',
      commentary: 'Hiring \\(remote\\) \\@ Herald #jobs',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    });
  });

  it('posts as an organization with CONNECTIONS visibility when asked', async () => {
    postCreated();
    await publisher().publish(
      { ...connection, externalId: 'urn:li:organization:5583111' },
      { content: 'Hi', mediaUrls: [], settings: { visibility: 'CONNECTIONS' } },
    );
    expect(api.requests[0]!.json()).toMatchObject({ author: 'urn:li:organization:5583111', visibility: 'CONNECTIONS' });
  });

  it('uploads one image (our bytes, fetched through the guarded client) and attaches its URN', async () => {
    api.on('GET', '/media/beans.jpg', { headers: { 'content-type': 'image/jpeg' }, body: IMAGE_BYTES });
    const init = f('image-initialize-upload');
    api.on('POST', '/rest/images', { json: { value: { ...init.value, uploadUrl: `${api.baseUrl}/dms-uploads/image-1` } } });
    api.on('PUT', '/dms-uploads/image-1', { status: 201, body: '' });
    postCreated();

    await publisher().publish(connection, { content: 'Beans', mediaUrls: [media('beans.jpg')], mediaKinds: ['image'], settings: {} });

    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /media/beans.jpg',
      'POST /rest/images',
      'PUT /dms-uploads/image-1',
      'POST /rest/posts',
    ]);
    const [, initRequest, put, post] = api.requests;
    expect(initRequest!.query.get('action')).toBe('initializeUpload');
    expect(initRequest!.json()).toEqual({ initializeUploadRequest: { owner: 'urn:li:person:8675309' } });
    expect(put!.body.equals(IMAGE_BYTES)).toBe(true);
    expect(put!.headers.authorization).toBe('Bearer AQV-linkedin-token');
    expect(post!.json().content).toEqual({ media: { id: 'urn:li:image:C4E10AQFoyyAjHPMQuQ' } });
  });

  it('sends several images as a multiImage post', async () => {
    api.on('GET', /^\/media\//, { headers: { 'content-type': 'image/jpeg' }, body: IMAGE_BYTES });
    let n = 0;
    api.on('POST', '/rest/images', () => {
      n += 1;
      return { json: { value: { uploadUrl: `${api.baseUrl}/dms-uploads/image-${n}`, image: `urn:li:image:IMG${n}` } } };
    });
    api.on('PUT', /^\/dms-uploads\//, { status: 201, body: '' });
    postCreated();

    await publisher().publish(connection, { content: 'Two', mediaUrls: [media('a.jpg'), media('b.jpg')], settings: {} });
    expect(api.calls('POST', '/rest/posts')[0]!.json().content).toEqual({ multiImage: { images: [{ id: 'urn:li:image:IMG1' }, { id: 'urn:li:image:IMG2' }] } });
  });

  it('uploads a video in the parts LinkedIn asks for, finalizes with the ETags and waits until AVAILABLE', async () => {
    api.on('GET', '/media/tour.mp4', { headers: { 'content-type': 'video/mp4' }, body: VIDEO_BYTES });
    const init = f('video-initialize-upload');
    init.value.uploadInstructions[0].uploadUrl = `${api.baseUrl}/dms-uploads/video/part-1`;
    init.value.uploadInstructions[1].uploadUrl = `${api.baseUrl}/dms-uploads/video/part-2`;
    api.on('POST', '/rest/videos', (req) => (req.query.get('action') === 'initializeUpload' ? { json: init } : { status: 200, body: '' }));
    api.on('PUT', '/dms-uploads/video/part-1', { headers: { etag: '/ETag-part-1' }, body: '' });
    api.on('PUT', '/dms-uploads/video/part-2', { headers: { etag: '/ETag-part-2' }, body: '' });
    api.on('GET', /^\/rest\/videos\//, { json: f('video-processing') }, { json: f('video-available') });
    postCreated();

    await publisher().publish(connection, { content: 'Tour', mediaUrls: [media('tour.mp4')], mediaKinds: ['video'], settings: {} });

    const [initRequest, finalize] = api.calls('POST', '/rest/videos');
    expect(initRequest!.json()).toEqual({
      initializeUploadRequest: { owner: 'urn:li:person:8675309', fileSizeBytes: 10, uploadCaptions: false, uploadThumbnail: false },
    });
    expect(api.calls('PUT', '/dms-uploads/video/part-1')[0]!.text).toBe('012345');
    expect(api.calls('PUT', '/dms-uploads/video/part-2')[0]!.text).toBe('6789');
    expect(finalize!.query.get('action')).toBe('finalizeUpload');
    expect(finalize!.json()).toEqual({
      finalizeUploadRequest: { video: 'urn:li:video:C5505AQH-oV1qvnFtKA', uploadToken: '', uploadedPartIds: ['/ETag-part-1', '/ETag-part-2'] },
    });
    expect(api.calls('GET', /^\/rest\/videos\//)[0]!.path).toBe('/rest/videos/urn%3Ali%3Avideo%3AC5505AQH-oV1qvnFtKA');
    expect(api.calls('POST', '/rest/posts')[0]!.json().content).toEqual({ media: { id: 'urn:li:video:C5505AQH-oV1qvnFtKA' } });
  });
});

describe('linkedin errors', () => {
  it('maps an error body to its message, verbatim', async () => {
    api.on('POST', '/rest/posts', { status: 422, json: f('error-duplicate') });
    const error = await failure(publisher().publish(connection, { content: 'Again', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Content is a duplicate of urn:li:share:7210000000000000000');
    expect(error.opts).toEqual({ status: 422 });
  });

  it('passes a 429 on with its status', async () => {
    api.on('POST', '/rest/posts', { status: 429, json: f('error-throttled') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('Resource level throttle APPLICATION DAY limit for calls to this resource is reached.');
    expect(error.opts).toEqual({ status: 429 });
  });

  it('raises TokenExpiredError for 401 when the app cannot refresh', async () => {
    api.on('POST', '/rest/posts', { status: 401, json: f('error-token-expired') });
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The token used in the request has been revoked by the user');
  });
});

describe('linkedin token refresh', () => {
  const account = (tokens: { accessToken: string; refreshToken: string | null; tokenExpiresAt: Date | null }) =>
    storedConnection('linkedin', { externalId: '8675309', accountName: 'ada-herald', ...tokens });

  it('refreshes after a 401, retries with the new token and stores the new tokens', async () => {
    const { connection: row, tokens } = account({ accessToken: 'AQV-old', refreshToken: 'AQW-refresh', tokenExpiresAt: new Date(Date.now() + 3_600_000) });
    api.on('POST', '/rest/posts', { status: 401, json: f('error-token-expired') }, { status: 201, headers: { 'x-restli-id': SHARE }, body: '' });
    api.on('POST', '/oauth/v2/accessToken', { json: f('token-refreshed') });

    const result = await publisher({ clientId: 'app-id', clientSecret: 'app-secret' }, tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} });

    expect(result.postedId).toBe(SHARE);
    const refresh = api.calls('POST', '/oauth/v2/accessToken')[0]!;
    expect(refresh.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(refresh.form())).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'AQW-refresh',
      client_id: 'app-id',
      client_secret: 'app-secret',
    });
    expect(api.calls('POST', '/rest/posts').map((r) => r.headers.authorization)).toEqual(['Bearer AQV-old', `Bearer ${f('token-refreshed').access_token}`]);
    const stored = tokens.get(row.id)!;
    expect(stored.accessToken).toBe(f('token-refreshed').access_token);
    expect(stored.refreshToken).toBe(f('token-refreshed').refresh_token);
    expect(Math.abs(stored.expiresAt!.getTime() - (Date.now() + 5_184_000_000))).toBeLessThan(60_000);
  });

  it('refreshes an already expired token before publishing', async () => {
    const { connection: row, tokens } = account({ accessToken: 'AQV-expired', refreshToken: 'AQW-refresh', tokenExpiresAt: new Date(Date.now() - 1000) });
    postCreated();
    api.on('POST', '/oauth/v2/accessToken', { json: f('token-refreshed') });

    await publisher({ clientId: 'app-id', clientSecret: 'app-secret' }, tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} });

    expect(api.requests.map((r) => r.path)).toEqual(['/oauth/v2/accessToken', '/rest/posts']);
    expect(api.calls('POST', '/rest/posts')[0]!.headers.authorization).toBe(`Bearer ${f('token-refreshed').access_token}`);
  });

  it('raises TokenExpiredError with LinkedIn’s words when the refresh token is refused', async () => {
    const { connection: row, tokens } = account({ accessToken: 'AQV-old', refreshToken: 'AQW-revoked', tokenExpiresAt: null });
    api.on('POST', '/rest/posts', { status: 401, json: f('error-token-expired') });
    api.on('POST', '/oauth/v2/accessToken', { status: 400, json: f('token-refresh-refused') });

    const error = await failure(
      publisher({ clientId: 'app-id', clientSecret: 'app-secret' }, tokens).publish(row, { content: 'x', mediaUrls: [], settings: {} }),
    );

    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The provided authorization grant or refresh token is invalid, expired or revoked');
    expect(tokens.get(row.id)!.accessToken).toBe('AQV-old');
  });
});

describe('little text', () => {
  it('escapes reserved characters but keeps hashtags', () => {
    expect(toLittleText('a_b (c) [d] {e} <f> *g* ~h~ |i| @j \\k #tag x#y # z')).toBe(
      'a\\_b \\(c\\) \\[d\\] \\{e\\} \\<f\\> \\*g\\* \\~h\\~ \\|i\\| \\@j \\\\k #tag x\\#y \\# z',
    );
  });
});
