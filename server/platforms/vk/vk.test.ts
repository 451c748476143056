// VK against the documented VK API v5.199 and VK ID shapes, served by the local HTTPS stand-in
// through the guarded client:
//   https://dev.vk.com/ru/method/wall.post (post_id; attachments; guid)
//   https://dev.vk.com/ru/api/upload/wall-photo (getWallUploadServer → upload → saveWallPhoto)
//   https://dev.vk.com/ru/api/upload/video (video.save → upload of video_file)
//   https://dev.vk.com/ru/reference/errors (error 5, 6, 9, 100: HTTP 200 with { error })
//   https://id.vk.com/about/business/go/docs/ru/vkid/latest/vk-id/connection/api-integration/api-description
//     (refresh_token grant with device_id)
//   https://dev.vk.com/ru/method/wall.get (reconcile) and https://dev.vk.com/ru/method/wall.getById (results)
import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type PublishRequest, type TokenStore } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture, type RecordedRequest } from '../testing/fake-platform-api';
import { createVkInsightsReader } from './vk-insights';
import { createVkPublisher, type VkOptions } from './vk-publisher';
import { createVkReconciler } from './vk-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const community = { ownerId: -229000001, userId: 100, deviceId: 'dev-1' };
const connection = () =>
  liveConnection('vk', { externalId: '-229000001', accountName: 'heraldcoffee', accessToken: 'vk2.a.access_0', platformData: community });
const options = (extra: Partial<VkOptions> = {}): VkOptions => ({ fetch: api.fetch, baseUrl: `${api.baseUrl}/method`, clientId: '', ...extra });
const publisher = (extra: Partial<VkOptions> = {}, tokens?: TokenStore) => publishing(createVkPublisher(options(extra)), tokens);
const WALL_POST = '/method/wall.post';
const JPEG = Buffer.from('\xff\xd8\xff\xe0 pretend jpeg', 'latin1');
const MP4 = Buffer.from('\x00\x00\x00\x18ftypmp42 pretend video', 'latin1');

const post = (settings: PublishRequest<'vk'>['settings'] = {}): PublishRequest<'vk'> => ({
  content: 'Our winter blend is back.\nRoasted on Tuesday.',
  mediaUrls: [],
  settings,
  idempotencyKey: 'target-1',
});

/** The one file part of a multipart upload: its field name, headers and bytes. */
function filePart(request: RecordedRequest): { name: string; headers: string; body: Buffer } {
  const boundary = /boundary=(.+)$/.exec(String(request.headers['content-type']))![1]!;
  const chunk = request.body.toString('latin1').split(`--${boundary}`)[1]!;
  const split = chunk.indexOf('\r\n\r\n');
  const headers = chunk.slice(2, split);
  return { name: /name="([^"]+)"/.exec(headers)![1]!, headers, body: Buffer.from(chunk.slice(split + 4, -2), 'latin1') };
}

describe('VK publishing', () => {
  it('uploads a photo and a video to the community, then posts them on its wall as the community', async () => {
    api.on('GET', '/media/beans.jpg', { headers: { 'content-type': 'image/jpeg' }, body: JPEG });
    api.on('GET', '/media/pour.mp4', { headers: { 'content-type': 'video/mp4' }, body: MP4 });
    const withUrl = (name: string, path: string) => ({ json: JSON.parse(JSON.stringify(f(name)).replace('UPLOAD_URL', `${api.baseUrl}${path}`)) });
    api.on('POST', '/method/photos.getWallUploadServer', withUrl('wall-upload-server', '/upload/photo'));
    api.on('POST', '/upload/photo', { json: f('photo-uploaded') });
    api.on('POST', '/method/photos.saveWallPhoto', { json: f('photo-saved') });
    api.on('POST', '/method/video.save', withUrl('video-save', '/upload/video'));
    api.on('POST', '/upload/video', { json: f('video-uploaded') });
    api.on('POST', WALL_POST, { json: f('wall-post') });

    const result = await publisher().publish(connection(), {
      ...post({ signed: true, source: 'https://heraldcoffee.example/winter' }),
      mediaUrls: [`${api.baseUrl}/media/beans.jpg`, `${api.baseUrl}/media/pour.mp4`],
      mediaKinds: ['image', 'video'],
    });

    expect(result).toEqual({ postedId: '-229000001_4217', permalink: 'https://vk.com/wall-229000001_4217' });
    const [server] = api.calls('POST', '/method/photos.getWallUploadServer');
    expect(Object.fromEntries(server!.form())).toEqual({ group_id: '229000001', v: '5.199' });
    expect(server!.headers.authorization).toBe('Bearer vk2.a.access_0');
    const photo = filePart(api.calls('POST', '/upload/photo')[0]!);
    expect(photo.name).toBe('photo');
    expect(photo.headers).toContain('filename="beans.jpg"');
    expect(photo.body.equals(JPEG)).toBe(true);
    const [saved] = api.calls('POST', '/method/photos.saveWallPhoto');
    expect(Object.fromEntries(saved!.form())).toMatchObject({
      group_id: '229000001',
      server: '858236',
      hash: f('photo-uploaded').hash,
      photo: f('photo-uploaded').photo,
    });
    const [slot] = api.calls('POST', '/method/video.save');
    expect(Object.fromEntries(slot!.form())).toMatchObject({ name: 'pour.mp4', wallpost: '0', group_id: '229000001' });
    const video = filePart(api.calls('POST', '/upload/video')[0]!);
    expect(video.name).toBe('video_file');
    expect(video.body.equals(MP4)).toBe(true);
    const [wall] = api.calls('POST', WALL_POST);
    expect(Object.fromEntries(wall!.form())).toEqual({
      owner_id: '-229000001',
      from_group: '1',
      signed: '1',
      message: 'Our winter blend is back.\nRoasted on Tuesday.',
      attachments: 'photo-229000001_457239017,video-229000001_456239021',
      copyright: 'https://heraldcoffee.example/winter',
      guid: 'target-1',
      v: '5.199',
    });
  });

  it('posts on the user’s own wall as the user, the photo saved with user_id', async () => {
    api.on('GET', '/media/beans.jpg', { headers: { 'content-type': 'image/jpeg' }, body: JPEG });
    api.on('POST', '/method/photos.getWallUploadServer', { json: { response: { upload_url: `${api.baseUrl}/upload/photo` } } });
    api.on('POST', '/upload/photo', { json: f('photo-uploaded') });
    api.on('POST', '/method/photos.saveWallPhoto', { json: { response: [{ id: 457239018, owner_id: 100 }] } });
    api.on('POST', WALL_POST, { json: f('wall-post') });
    const own = liveConnection('vk', {
      externalId: '100',
      accountName: 'anna.petrova',
      accessToken: 'vk2.a.access_0',
      platformData: { ...community, ownerId: 100 },
    });

    const result = await publisher().publish(own, { ...post({ signed: true }), mediaUrls: [`${api.baseUrl}/media/beans.jpg`], mediaKinds: ['image'] });

    expect(result).toEqual({ postedId: '100_4217', permalink: 'https://vk.com/wall100_4217' });
    expect(api.calls('POST', '/method/photos.getWallUploadServer')[0]!.form().has('group_id')).toBe(false);
    expect(api.calls('POST', '/method/photos.saveWallPhoto')[0]!.form().get('user_id')).toBe('100');
    const form = api.calls('POST', WALL_POST)[0]!.form();
    expect(form.get('owner_id')).toBe('100');
    expect(form.get('attachments')).toBe('photo100_457239018');
    expect(form.has('from_group')).toBe(false);
    expect(form.has('signed')).toBe(false);
  });

  it('passes VK’s refusal on verbatim, though VK answers it with HTTP 200', async () => {
    api.on('POST', WALL_POST, { json: f('error-invalid-attachments') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('One of the parameters specified was missing or invalid: attachments is invalid');
  });

  it('waits out "too many requests per second" and posts once; reports flood control as a rate limit', async () => {
    api.on('POST', WALL_POST, { json: f('error-too-many-per-second') }, { json: f('wall-post') });
    expect((await publisher().publish(connection(), post())).postedId).toBe('-229000001_4217');
    expect(api.calls('POST', WALL_POST)).toHaveLength(2);

    api.on('POST', WALL_POST, { json: f('error-flood-control') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error.message).toBe('Flood control');
    expect(error.opts).toEqual({ status: 429 });
  });

  it('hands VK the target’s key as wall.post’s guid on every attempt', async () => {
    api.on('POST', WALL_POST, { json: f('wall-post') });
    await publisher().publish(connection(), post());
    await publisher().publish(connection(), post());
    expect(api.calls('POST', WALL_POST).map((r) => r.form().get('guid'))).toEqual(['target-1', 'target-1']);
  });

  it('refuses more than ten attachments and an empty post before calling VK', async () => {
    const urls = Array.from({ length: 11 }, (_, i) => `https://cdn.herald.example/${i}.jpg`);
    expect((await failure(publisher().publish(connection(), { ...post(), mediaUrls: urls }))).message).toBe('A VK post takes at most 10 attachments');
    expect((await failure(publisher().publish(connection(), { content: '  ', mediaUrls: [], settings: {} }))).message).toBe('A VK post needs text or media');
    expect(api.requests).toHaveLength(0);
  });
});

describe('VK token refresh', () => {
  const account = (tokenExpiresAt: Date) =>
    storedConnection('vk', {
      externalId: '-229000001',
      accountName: 'heraldcoffee',
      accessToken: 'vk2.a.access_1',
      refreshToken: 'vk2.a.refresh_1',
      tokenExpiresAt,
    });
  const app = { clientId: '51234567', idBaseUrl: '' };

  it('refreshes through VK ID with the device_id after error 5, posts again and keeps the new refresh token', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() + 600_000));
    api.on('POST', WALL_POST, { json: f('error-auth-failed') }, { json: f('wall-post') });
    api.on('POST', '/oauth2/auth', { json: f('token-refreshed') });

    const result = await publisher({ ...app, idBaseUrl: api.baseUrl }, tokens).publish({ ...row, platformData: community }, post());

    expect(result.postedId).toBe('-229000001_4217');
    const refresh = Object.fromEntries(api.calls('POST', '/oauth2/auth')[0]!.form());
    expect(refresh).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'vk2.a.refresh_1', client_id: '51234567', device_id: 'dev-1' });
    expect(refresh.state).toMatch(/^[0-9a-f]{32}$/);
    expect(api.calls('POST', WALL_POST).map((r) => r.headers.authorization)).toEqual(['Bearer vk2.a.access_1', 'Bearer vk2.a.access_2']);
    expect(tokens.get(row.id)).toMatchObject({ accessToken: 'vk2.a.access_2', refreshToken: 'vk2.a.refresh_2' });
  });

  it('asks for a reconnect in VK ID’s words when the refresh token is refused', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/oauth2/auth', { status: 400, json: { error: 'invalid_grant', error_description: 'Refresh token is expired', state: 's' } });
    const error = await failure(publisher({ ...app, idBaseUrl: api.baseUrl }, tokens).publish({ ...row, platformData: community }, post()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Refresh token is expired');
    expect(api.calls('POST', WALL_POST)).toHaveLength(0);
  });

  it('reports error 5 as a connection to reconnect when no app can refresh it', async () => {
    api.on('POST', WALL_POST, { json: f('error-auth-failed') });
    const error = await failure(publisher().publish(connection(), post()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('User authorization failed: invalid access_token (4).');
  });
});

describe('VK reconcile', () => {
  const intent = (extra = {}) => ({
    idempotencyKey: 'target-1',
    content: 'Our winter blend is back.\nRoasted on Tuesday.',
    mediaUrls: [],
    settings: {},
    startedAt: new Date('2026-11-27T09:30:00Z'),
    ...extra,
  });
  const ctx = () => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T10:00:00Z') });
  const reconciler = () => createVkReconciler(options());

  it('finds the wall post made since the attempt began with the text sent', async () => {
    api.on('POST', '/method/wall.get', { json: f('wall-get') });
    const settled = await reconciler().reconcile(connection(), intent(), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: '-229000001_4217', permalink: 'https://vk.com/wall-229000001_4217' },
      evidence: expect.stringContaining('-229000001_4217'),
    });
    expect(Object.fromEntries(api.requests[0]!.form())).toMatchObject({ owner_id: '-229000001', count: '20' });
  });

  it('is absent when no post on the wall carries the text', async () => {
    api.on('POST', '/method/wall.get', { json: f('wall-get') });
    expect((await reconciler().reconcile(connection(), intent({ content: 'Something else' }), ctx())).outcome).toBe('absent');
  });

  it('cannot tell when VK cannot be asked', async () => {
    api.on('POST', '/method/wall.get', { json: f('error-flood-control') });
    expect(await reconciler().reconcile(connection(), intent(), ctx())).toEqual({ outcome: 'unknown', evidence: 'VK could not be asked: Flood control' });
  });
});

describe('VK post results', () => {
  it('reads views, likes, comments and reposts of each post from wall.getById', async () => {
    api.on('POST', '/method/wall.getById', { json: f('wall-get-by-id') });
    const read = await createVkInsightsReader(options()).readPostMetrics(
      connection(),
      [
        { postedId: '-229000001_4217', publishedAt: new Date() },
        { postedId: '-229000001_1', publishedAt: new Date() },
      ],
      { tokens: new MemoryTokenStore(), now: new Date() },
    );
    expect(api.requests[0]!.form().get('posts')).toBe('-229000001_4217,-229000001_1');
    const found = read.get('-229000001_4217');
    expect(found?.ok && found.metrics.views).toEqual({ value: 1250, reason: null, networkName: 'views.count' });
    expect(found?.ok && found.metrics.reactions.value).toBe(41);
    expect(found?.ok && found.metrics.comments.value).toBe(3);
    expect(found?.ok && found.metrics.shares.value).toBe(5);
    expect(found?.ok && found.metrics.saves.value).toBeNull();
    expect(read.get('-229000001_1')).toEqual({ ok: false, reason: expect.stringContaining('did not return this post') });
  });

  it('reads a community’s members_count as its followers', async () => {
    api.on('POST', '/method/groups.getById', { json: { response: { groups: [{ id: 229000001, name: 'Herald Coffee', members_count: 812 }], profiles: [] } } });
    const count = await createVkInsightsReader(options()).readFollowers!(connection(), { tokens: new MemoryTokenStore(), now: new Date() });
    expect(count).toEqual({ value: 812, reason: null, networkName: 'members_count' });
  });
});
