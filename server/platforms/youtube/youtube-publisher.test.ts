// The YouTube adapter against the documented requests and answers:
//   https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol (step 2: the
//     session URI is saved before the bytes go, so an interrupted upload can be asked about)
//   https://developers.google.com/youtube/v3/docs/videos/insert, …/docs/videos (the resource)
//   https://developers.google.com/youtube/v3/docs/errors (quotaExceeded, authError)
//   https://developers.google.com/identity/protocols/oauth2/web-server#offline (refresh)
import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type PublishRequest, type TokenStore } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createYouTubePublisher, type YouTubeOptions } from './youtube-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const VIDEO_ID = 'Ks-_Mh1QhMc';
const VIDEO_BYTES = Buffer.from('\x00\x00\x00\x18ftypmp42 pretend video bytes 0123456789');
const UPLOAD_PATH = '/upload/youtube/v3/videos';
const SESSION_PATH = '/upload/youtube/v3/sessions/xa298sd_sdlkj2';

const api = useFakePlatformApi();
const connection = liveConnection('youtube', { externalId: 'UC_x5XG1OV2P6uZZ5FSM9Ttw', accountName: '@heraldcoffee', accessToken: 'ya29.current' });

const publisher = (extra: Partial<YouTubeOptions> = {}, tokens?: TokenStore) =>
  publishing(createYouTubePublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra }), tokens);

const request = (settings: PublishRequest<'youtube'>['settings'] = { title: 'Latte art in 30 seconds' }): PublishRequest<'youtube'> => ({
  content: 'Our head barista pours a rosetta.',
  mediaUrls: [`${api.baseUrl}/media/latte.mp4`],
  mediaKinds: ['video'],
  settings,
});

function serveVideo() {
  api.on('GET', '/media/latte.mp4', { headers: { 'content-type': 'video/mp4' }, body: VIDEO_BYTES });
}

function startSession() {
  api.on('POST', UPLOAD_PATH, () => ({ headers: { location: `${api.baseUrl}${SESSION_PATH}?upload_id=xa298sd_sdlkj2` }, body: '' }));
}

describe('youtube publishing', () => {
  it('uploads the video with the resumable protocol: metadata first, then the bytes to the session URL', async () => {
    serveVideo();
    startSession();
    api.on('PUT', SESSION_PATH, { status: 201, json: f('video-inserted') });

    const result = await publisher().publish(
      connection,
      request({ title: 'Latte art in 30 seconds', privacy: 'unlisted', tags: ['coffee', 'latte art'], categoryId: '22', madeForKids: false }),
    );

    expect(result).toEqual({ postedId: VIDEO_ID, permalink: `https://www.youtube.com/watch?v=${VIDEO_ID}` });
    const [start] = api.calls('POST', UPLOAD_PATH);
    expect(start!.query.get('uploadType')).toBe('resumable');
    expect(start!.query.get('part')).toBe('snippet,status');
    expect(start!.headers).toMatchObject({
      authorization: 'Bearer ya29.current',
      'content-type': 'application/json; charset=UTF-8',
      'x-upload-content-length': String(VIDEO_BYTES.length),
      'x-upload-content-type': 'video/mp4',
    });
    expect(start!.json()).toEqual({
      snippet: { title: 'Latte art in 30 seconds', description: 'Our head barista pours a rosetta.', tags: ['coffee', 'latte art'], categoryId: '22' },
      status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
    });
    const [put] = api.calls('PUT', SESSION_PATH);
    expect(put!.query.get('upload_id')).toBe('xa298sd_sdlkj2');
    expect(put!.headers['content-type']).toBe('video/mp4');
    expect(put!.headers['content-range']).toBeUndefined();
    expect(Buffer.compare(put!.body, VIDEO_BYTES)).toBe(0);
  });

  it('reports the upload session through the checkpoint before any byte of the video is sent', async () => {
    serveVideo();
    startSession();
    api.on('PUT', SESSION_PATH, { status: 201, json: f('video-inserted') });
    const reported: { values: Record<string, string>; putsSoFar: number }[] = [];
    const checkpoint = async (values: Record<string, string>) => void reported.push({ values, putsSoFar: api.calls('PUT', SESSION_PATH).length });

    const result = await createYouTubePublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '' }).publish(connection, request(), {
      tokens: new MemoryTokenStore(),
      checkpoint,
    });

    expect(result.postedId).toBe(VIDEO_ID);
    expect(reported).toEqual([
      { values: { uploadUrl: `${api.baseUrl}${SESSION_PATH}?upload_id=xa298sd_sdlkj2`, uploadBytes: String(VIDEO_BYTES.length) }, putsSoFar: 0 },
    ]);
  });

  it('sends no byte when the checkpoint cannot be recorded', async () => {
    serveVideo();
    startSession();
    const refused = createYouTubePublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '' }).publish(connection, request(), {
      tokens: new MemoryTokenStore(),
      checkpoint: async () => {
        throw new Error('the attempt could not be recorded');
      },
    });
    await expect(refused).rejects.toThrow('the attempt could not be recorded');
    expect(api.calls('PUT', SESSION_PATH)).toHaveLength(0);
  });

  it('sends the rest after a 308 Resume Incomplete, from the byte its Range names', async () => {
    serveVideo();
    startSession();
    api.on('PUT', SESSION_PATH, { status: 308, headers: { range: 'bytes=0-9' }, body: '' }, { status: 201, json: f('video-inserted') });

    const result = await publisher().publish(connection, request({ title: 'Pour', short: true }));

    expect(result.permalink).toBe(`https://www.youtube.com/shorts/${VIDEO_ID}`);
    const [, resumed] = api.calls('PUT', SESSION_PATH);
    expect(resumed!.headers['content-range']).toBe(`bytes 10-${VIDEO_BYTES.length - 1}/${VIDEO_BYTES.length}`);
    expect(Buffer.compare(resumed!.body, VIDEO_BYTES.subarray(10))).toBe(0);
    // Public by default, not declared made for kids.
    expect(api.calls('POST', UPLOAD_PATH)[0]!.json().status).toEqual({ privacyStatus: 'public', selfDeclaredMadeForKids: false });
  });

  it('asks the session how much arrived after a 503, then resumes from there', async () => {
    serveVideo();
    startSession();
    api.on(
      'PUT',
      SESSION_PATH,
      { status: 503, body: '' },
      { status: 308, headers: { range: 'bytes=0-19' }, body: '' },
      { status: 201, json: f('video-inserted') },
    );
    await publisher().publish(connection, request());
    const puts = api.calls('PUT', SESSION_PATH);
    expect(puts.map((p) => p.headers['content-range'])).toEqual([
      undefined,
      `bytes */${VIDEO_BYTES.length}`,
      `bytes 20-${VIDEO_BYTES.length - 1}/${VIDEO_BYTES.length}`,
    ]);
    expect(puts[1]!.body.length).toBe(0);
  });

  it('waits out a 429 with Retry-After, then uploads', async () => {
    serveVideo();
    api.on('POST', UPLOAD_PATH, { status: 429, headers: { 'retry-after': '1' }, json: f('error-rate-limit') }, () => ({
      headers: { location: `${api.baseUrl}${SESSION_PATH}` },
      body: '',
    }));
    api.on('PUT', SESSION_PATH, { status: 201, json: f('video-inserted') });
    const result = await publisher().publish(connection, request());
    expect(result.postedId).toBe(VIDEO_ID);
    expect(api.calls('POST', UPLOAD_PATH)).toHaveLength(2);
  });
});

describe('youtube errors', () => {
  it('records quotaExceeded with Google’s message verbatim and its status', async () => {
    serveVideo();
    api.on('POST', UPLOAD_PATH, { status: 403, json: f('error-quota-exceeded') });
    const error = await failure(publisher().publish(connection, request()));
    expect(error.message).toBe(f('error-quota-exceeded').error.message);
    expect(error.opts).toEqual({ status: 403 });
  });

  it('refuses a post without exactly one video, or without a title, before calling YouTube', async () => {
    const noVideo = await failure(publisher().publish(connection, { ...request(), mediaUrls: [], mediaKinds: [] }));
    expect(noVideo.message).toBe('A YouTube post takes exactly one video');
    const noTitle = await failure(publisher().publish(connection, request({})));
    expect(noTitle.message).toBe('YouTube videos need a title (platformSettings.youtube.title)');
    expect(api.requests).toHaveLength(0);
  });

  it('raises TokenExpiredError for a 401 when the app cannot refresh', async () => {
    serveVideo();
    api.on('POST', UPLOAD_PATH, { status: 401, json: f('error-invalid-credentials') });
    const error = await failure(publisher().publish(connection, request()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-invalid-credentials').error.message);
  });
});

describe('youtube token refresh', () => {
  const google = { clientId: 'google-client.apps.googleusercontent.com', clientSecret: 'google-secret' };
  const account = (tokenExpiresAt: Date | null) =>
    storedConnection('youtube', {
      externalId: 'UC_x5XG1OV2P6uZZ5FSM9Ttw',
      accountName: '@heraldcoffee',
      accessToken: 'ya29.old',
      refreshToken: '1//0gLrefresh',
      tokenExpiresAt,
    });

  it('refreshes an expired token at Google’s token endpoint, keeps the refresh token, and uploads', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/token', { json: f('token-refreshed') });
    serveVideo();
    startSession();
    api.on('PUT', SESSION_PATH, { status: 201, json: f('video-inserted') });

    const result = await publisher({ ...google, tokenUrl: `${api.baseUrl}/token` }, tokens).publish(row, request());

    expect(result.postedId).toBe(VIDEO_ID);
    expect(Object.fromEntries(api.calls('POST', '/token')[0]!.form())).toEqual({
      grant_type: 'refresh_token',
      refresh_token: '1//0gLrefresh',
      client_id: google.clientId,
      client_secret: google.clientSecret,
    });
    expect(api.calls('POST', UPLOAD_PATH)[0]!.headers.authorization).toBe('Bearer ya29.a0AfH6SMBx-refreshed');
    // Google's refresh tokens do not rotate: the stored one is kept.
    expect(tokens.get(row.id)).toMatchObject({ accessToken: 'ya29.a0AfH6SMBx-refreshed', refreshToken: '1//0gLrefresh' });
  });

  it('raises TokenExpiredError with Google’s description when the grant was revoked', async () => {
    const { connection: row, tokens } = account(new Date(Date.now() - 1000));
    api.on('POST', '/token', { status: 400, json: f('token-refresh-refused') });
    serveVideo();
    const error = await failure(publisher({ ...google, tokenUrl: `${api.baseUrl}/token` }, tokens).publish(row, request()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Token has been expired or revoked.');
    expect(api.calls('POST', UPLOAD_PATH)).toHaveLength(0);
  });
});
