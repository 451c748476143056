// The Pinterest adapter against the documented requests and answers:
//   https://developers.pinterest.com/docs/api/v5/pins-create (Pin, media_source)
//   https://developers.pinterest.com/docs/api/v5/media-create, …/media-get (video uploads)
//   https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/ (refresh)
import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type PublishRequest, type TokenStore } from '../publisher';
import { failure, liveConnection, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createPinterestPublisher, type PinterestOptions } from './pinterest-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const PIN_ID = '813744226420795884';
const BOARD = '549755885175';
const VIDEO_BYTES = Buffer.from('\x00\x00\x00\x18ftypmp42 pretend pin video');

const api = useFakePlatformApi();
const connection = liveConnection('pinterest', {
  externalId: BOARD,
  accountName: 'heraldcoffee / Winter drinks',
  accessToken: 'pina_current',
  platformData: { boardId: BOARD, username: 'heraldcoffee' },
});

const publisher = (extra: Partial<PinterestOptions> = {}, tokens?: TokenStore) =>
  publishing(
    createPinterestPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', pollIntervalMs: 0, pollAttempts: 3, ...extra }),
    tokens,
  );

const imagePin = (settings: PublishRequest<'pinterest'>['settings'] = {}): PublishRequest<'pinterest'> => ({
  content: 'Dark chocolate, orange peel, a long finish.',
  mediaUrls: ['https://cdn.herald.example/m/cup.jpg'],
  mediaKinds: ['image'],
  settings,
});

describe('pinterest publishing', () => {
  it('pins an image by URL on the connection’s board with title, link and alt text', async () => {
    api.on('POST', '/v5/pins', { status: 201, json: f('pin-created') });
    const result = await publisher().publish(
      connection,
      imagePin({ title: 'Winter blend', link: 'https://herald.example/winter-blend', altText: 'A cup of coffee next to a bag of beans' }),
    );
    expect(result).toEqual({ postedId: PIN_ID, permalink: `https://www.pinterest.com/pin/${PIN_ID}/` });
    const [pin] = api.calls('POST', '/v5/pins');
    expect(pin!.headers.authorization).toBe('Bearer pina_current');
    expect(pin!.json()).toEqual({
      board_id: BOARD,
      title: 'Winter blend',
      description: 'Dark chocolate, orange peel, a long finish.',
      link: 'https://herald.example/winter-blend',
      alt_text: 'A cup of coffee next to a bag of beans',
      media_source: { source_type: 'image_url', url: 'https://cdn.herald.example/m/cup.jpg' },
    });
  });

  it('pins to the board a post names instead', async () => {
    api.on('POST', '/v5/pins', { status: 201, json: f('pin-created') });
    await publisher().publish(connection, imagePin({ boardId: '549755885176' }));
    expect(api.calls('POST', '/v5/pins')[0]!.json().board_id).toBe('549755885176');
  });

  it('uploads a video: registers it, posts the file with every upload parameter, polls, then pins the video_id with its cover', async () => {
    api.on('GET', '/media/pour.mp4', { headers: { 'content-type': 'video/mp4' }, body: VIDEO_BYTES });
    api.on('POST', '/v5/media', () => ({ status: 201, json: { ...f('media-registered'), upload_url: `${api.baseUrl}/s3-upload/` } }));
    api.on('POST', '/s3-upload/', { status: 204, body: '' });
    api.on('GET', '/v5/media/12345', { json: f('media-processing') }, { json: f('media-succeeded') });
    api.on('POST', '/v5/pins', { status: 201, json: f('pin-created') });

    const result = await publisher().publish(connection, {
      content: 'The pour',
      mediaUrls: [`${api.baseUrl}/media/pour.mp4`],
      mediaKinds: ['video'],
      settings: { coverImageUrl: 'https://cdn.herald.example/m/cover.jpg' },
    });

    expect(result.postedId).toBe(PIN_ID);
    expect(api.calls('POST', '/v5/media')[0]!.json()).toEqual({ media_type: 'video' });
    const [upload] = api.calls('POST', '/s3-upload/');
    expect(upload!.headers.authorization).toBeUndefined(); // S3 authenticates by the signed fields
    expect(upload!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const fields = [...upload!.text.matchAll(/form-data; name="([^"]+)"/g)].map((m) => m[1]);
    expect(fields).toEqual([...Object.keys(f('media-registered').upload_parameters), 'file']);
    expect(upload!.text).toContain('uploads/12/34/56/12345.mp4');
    expect(upload!.body.includes(VIDEO_BYTES)).toBe(true);
    expect(api.calls('GET', '/v5/media/12345')).toHaveLength(2);
    expect(api.calls('POST', '/v5/pins')[0]!.json().media_source).toEqual({
      source_type: 'video_id',
      media_id: '12345',
      cover_image_url: 'https://cdn.herald.example/m/cover.jpg',
    });
  });

  it('waits out a 429 with Retry-After, then pins', async () => {
    api.on('POST', '/v5/pins', { status: 429, headers: { 'retry-after': '1' }, json: f('error-rate-limit') }, { status: 201, json: f('pin-created') });
    const result = await publisher().publish(connection, imagePin());
    expect(result.postedId).toBe(PIN_ID);
    expect(api.calls('POST', '/v5/pins')).toHaveLength(2);
  });
});

describe('pinterest errors', () => {
  it('records Pinterest’s message verbatim with its status', async () => {
    api.on('POST', '/v5/pins', { status: 400, json: f('error-invalid-parameters') });
    const error = await failure(publisher().publish(connection, imagePin()));
    expect(error.message).toBe(f('error-invalid-parameters').message);
    expect(error.opts).toEqual({ status: 400 });
  });

  it('reports a failed video processing', async () => {
    api.on('GET', '/media/pour.mp4', { headers: { 'content-type': 'video/mp4' }, body: VIDEO_BYTES });
    api.on('POST', '/v5/media', () => ({ status: 201, json: { ...f('media-registered'), upload_url: `${api.baseUrl}/s3-upload/` } }));
    api.on('POST', '/s3-upload/', { status: 204, body: '' });
    api.on('GET', '/v5/media/12345', { json: { media_id: '12345', media_type: 'video', status: 'failed' } });
    const error = await failure(
      publisher().publish(connection, { content: 'x', mediaUrls: [`${api.baseUrl}/media/pour.mp4`], mediaKinds: ['video'], settings: {} }),
    );
    expect(error.message).toBe('Pinterest could not process the video (media status "failed")');
    expect(api.calls('POST', '/v5/pins')).toHaveLength(0);
  });

  it('refuses a pin without media before calling Pinterest', async () => {
    const error = await failure(publisher().publish(connection, { content: 'x', mediaUrls: [], settings: {} }));
    expect(error.message).toBe('A Pinterest pin needs an image or a video');
    expect(api.requests).toHaveLength(0);
  });
});

describe('pinterest token refresh', () => {
  const account = (tokenExpiresAt: Date) =>
    storedConnection('pinterest', {
      externalId: BOARD,
      accountName: 'heraldcoffee / Winter drinks',
      accessToken: 'pina_old',
      refreshToken: 'pinr_old',
      tokenExpiresAt,
    });

  it('refreshes with Basic client authentication after a 401, retries, and keeps the refresh token', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() + 3_600_000));
    const withBoard = { ...row, platformData: { boardId: BOARD } };
    api.on('POST', '/v5/pins', { status: 401, json: f('error-authentication') }, { status: 201, json: f('pin-created') });
    api.on('POST', '/v5/oauth/token', { json: f('token-refreshed') });

    const result = await publisher({ clientId: '1484362', clientSecret: 'pinterest-secret' }, tokens).publish(withBoard, imagePin());

    expect(result.postedId).toBe(PIN_ID);
    const [refresh] = api.calls('POST', '/v5/oauth/token');
    expect(refresh!.headers.authorization).toBe(`Basic ${Buffer.from('1484362:pinterest-secret').toString('base64')}`);
    expect(Object.fromEntries(refresh!.form())).toEqual({ grant_type: 'refresh_token', refresh_token: 'pinr_old' });
    expect(api.calls('POST', '/v5/pins').map((r) => r.headers.authorization)).toEqual(['Bearer pina_old', 'Bearer pina_AMAZ3WWWREFRESHED']);
    expect(tokens.get(row.id)).toMatchObject({ accessToken: 'pina_AMAZ3WWWREFRESHED', refreshToken: 'pinr_old' });
  });

  it('raises TokenExpiredError when Pinterest refuses the refresh token', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/v5/oauth/token', { status: 400, json: { code: 1, message: 'Invalid refresh token.' } });
    const error = await failure(
      publisher({ clientId: '1484362', clientSecret: 'pinterest-secret' }, tokens).publish({ ...row, platformData: { boardId: BOARD } }, imagePin()),
    );
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Invalid refresh token.');
  });
});
