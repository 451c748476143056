// The YouTube reconciler against the documented resumable upload session, channel and playlist
// answers, served by the local HTTPS stand-in through the guarded client.
//   https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol (step 4.1: PUT
//     Content-Range bytes */<size> → 308 with Range, 201 with the video, 404 once expired)
//   https://developers.google.com/youtube/v3/guides/implementation/videos (a channel's uploads)
//   https://developers.google.com/youtube/v3/docs/channels/list (contentDetails.relatedPlaylists.uploads)
//   https://developers.google.com/youtube/v3/docs/playlistItems/list (snippet.title, snippet.publishedAt,
//     contentDetails.videoId, nextPageToken)
//   https://developers.google.com/youtube/v3/docs/errors (quotaExceeded, authError)
//   https://developers.google.com/identity/protocols/oauth2/web-server#offline (refresh)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import type { AttemptIntent } from '../reconcile';
import { createYouTubePublisher, type YouTubeOptions } from './youtube-publisher';
import { createYouTubeReconciler } from './youtube-reconcile';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const CHANNEL = 'UC_x5XG1OV2P6uZZ5FSM9Ttw';
const VIDEO_ID = 'Ks-_Mh1QhMc';
const VIDEO_BYTES = Buffer.from('\x00\x00\x00\x18ftypmp42 pretend video bytes 0123456789');
const UPLOAD_PATH = '/upload/youtube/v3/videos';
const SESSION_PATH = '/upload/youtube/v3/sessions/xa298sd_sdlkj2';
const CHANNELS = '/youtube/v3/channels';
const PLAYLIST_ITEMS = '/youtube/v3/playlistItems';
const TITLE = 'Latte art in 30 seconds';
const now = new Date('2026-11-27T12:05:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const noApp = { clientId: '', clientSecret: '' };
const reconciler = (extra: Partial<YouTubeOptions> = {}) => createYouTubeReconciler({ fetch: api.fetch, baseUrl: api.baseUrl, ...noApp, ...extra });
const account = () => liveConnection('youtube', { externalId: CHANNEL, accountName: '@heraldcoffee', accessToken: 'ya29.current' });
const session = () => ({ uploadUrl: `${api.baseUrl}${SESSION_PATH}?upload_id=xa298sd_sdlkj2`, uploadBytes: String(VIDEO_BYTES.length) });
const intent = (extra: Partial<AttemptIntent> = {}, settings: Record<string, unknown> = { title: TITLE }): AttemptIntent => ({
  idempotencyKey: 'target-3',
  content: 'Our head barista pours a rosetta.',
  mediaUrls: ['https://cdn.herald.example/latte.mp4'],
  settings,
  startedAt: new Date('2026-11-27T11:58:00Z'),
  ...extra,
});
const uploadsListed = (playlist: unknown = f('playlist-items-uploads')) => {
  api.on('GET', CHANNELS, { json: f('channels-uploads') });
  api.on('GET', PLAYLIST_ITEMS, { json: playlist });
};

describe('YouTube reconcile: the upload session', () => {
  it('finds the video the session completed, as the publisher records it, without sending any byte', async () => {
    // The publish reports its session, then is cut off: the session is what the reconciler asks.
    api.on('GET', '/media/latte.mp4', { headers: { 'content-type': 'video/mp4' }, body: VIDEO_BYTES });
    api.on('POST', UPLOAD_PATH, () => ({ headers: { location: `${api.baseUrl}${SESSION_PATH}?upload_id=xa298sd_sdlkj2` }, body: '' }));
    api.on('PUT', SESSION_PATH, { status: 201, json: f('video-inserted') });
    const checkpoints: Record<string, string>[] = [];
    const published = await createYouTubePublisher({ fetch: api.fetch, baseUrl: api.baseUrl, ...noApp }).publish(
      account(),
      { content: 'Our head barista pours a rosetta.', mediaUrls: [`${api.baseUrl}/media/latte.mp4`], mediaKinds: ['video'], settings: { title: TITLE } },
      { tokens: new MemoryTokenStore(), checkpoint: async (values) => void checkpoints.push(values) },
    );
    api.reset();

    api.on('PUT', SESSION_PATH, { status: 201, json: f('video-inserted') });
    const settled = await reconciler().reconcile(account(), intent({ checkpoint: checkpoints[0] }), ctx());

    expect(checkpoints).toEqual([session()]);
    expect(settled).toEqual({ outcome: 'found', result: published, evidence: expect.stringContaining(`HTTP 201 with video ${VIDEO_ID}`) });
    expect(published).toEqual({ postedId: VIDEO_ID, permalink: `https://www.youtube.com/watch?v=${VIDEO_ID}` });
    const [asked, ...more] = api.requests;
    expect(more).toHaveLength(0);
    expect(asked!.method).toBe('PUT');
    expect(asked!.query.get('upload_id')).toBe('xa298sd_sdlkj2');
    expect(asked!.headers['content-range']).toBe(`bytes */${VIDEO_BYTES.length}`);
    expect(asked!.headers.authorization).toBe('Bearer ya29.current');
    expect(asked!.body.length).toBe(0);
    expect(api.calls('POST', UPLOAD_PATH)).toHaveLength(0);
  });

  it('answers absent when the session is incomplete (308): no video was made from it', async () => {
    api.on('PUT', SESSION_PATH, { status: 308, headers: { range: 'bytes=0-9' }, body: '' });
    expect(await reconciler().reconcile(account(), intent({ checkpoint: session() }), ctx())).toEqual({
      outcome: 'absent',
      evidence: `YouTube’s upload session is incomplete (308 Resume Incomplete, 10 of ${VIDEO_BYTES.length} bytes received): no video was made from it`,
    });
    expect(api.calls('GET', CHANNELS)).toHaveLength(0);
  });

  it('asks with bytes */* when the size was not recorded, and gives a Short its /shorts/ address', async () => {
    api.on('PUT', SESSION_PATH, { json: f('video-inserted') });
    const settled = await reconciler().reconcile(account(), intent({ checkpoint: { uploadUrl: session().uploadUrl } }, { title: TITLE, short: true }), ctx());
    expect(api.calls('PUT', SESSION_PATH)[0]!.headers['content-range']).toBe('bytes */*');
    expect(settled).toMatchObject({ outcome: 'found', result: { postedId: VIDEO_ID, permalink: `https://www.youtube.com/shorts/${VIDEO_ID}` } });
  });

  it('reads the channel’s uploads when the session has expired', async () => {
    api.on('PUT', SESSION_PATH, { status: 404, body: 'Not Found' });
    uploadsListed();
    const settled = await reconciler().reconcile(account(), intent({ checkpoint: session() }), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: VIDEO_ID, permalink: `https://www.youtube.com/watch?v=${VIDEO_ID}` },
      evidence: expect.stringMatching(/^YouTube’s upload session has expired \(HTTP 404\)\. Video Ks-_Mh1QhMc, added to the channel’s uploads/),
    });
  });

  it('never sends the token to a session address that is not YouTube’s', async () => {
    uploadsListed();
    const foreign = { uploadUrl: 'https://uploads.example.net/upload/youtube/v3/videos?upload_id=1', uploadBytes: '42' };
    const settled = await reconciler().reconcile(account(), intent({ checkpoint: foreign }), ctx());
    expect(settled).toMatchObject({ outcome: 'found', evidence: expect.stringContaining('not at a YouTube address, so it was not asked') });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${CHANNELS}`, `GET ${PLAYLIST_ITEMS}`]);
  });

  it('is unknown, with Google’s words, when the session answers otherwise', async () => {
    api.on('PUT', SESSION_PATH, { status: 503, json: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } } });
    expect(await reconciler().reconcile(account(), intent({ checkpoint: session() }), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'YouTube’s upload session did not say how the upload ended: The service is currently unavailable.',
    });
  });
});

describe('YouTube reconcile: the channel’s uploads', () => {
  it('finds the video by title and time in the uploads playlist of the channel', async () => {
    uploadsListed();
    const settled = await reconciler().reconcile(account(), intent(), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: VIDEO_ID, permalink: `https://www.youtube.com/watch?v=${VIDEO_ID}` },
      evidence: expect.stringContaining('No upload session was recorded for this attempt. Video Ks-_Mh1QhMc'),
    });
    const [channels, items, ...more] = api.requests;
    expect(more).toHaveLength(0);
    expect(Object.fromEntries(channels!.query)).toEqual({ part: 'contentDetails', id: CHANNEL });
    expect(Object.fromEntries(items!.query)).toEqual({ part: 'snippet,contentDetails', playlistId: 'UU_x5XG1OV2P6uZZ5FSM9Ttw', maxResults: '50' });
    expect(items!.headers.authorization).toBe('Bearer ya29.current');
  });

  it('answers absent when no upload since the attempt has the title: an older one with it, or a recent one with another, is not it', async () => {
    uploadsListed();
    const later = await reconciler().reconcile(account(), intent({ startedAt: new Date('2026-11-27T12:00:00Z') }), ctx());
    expect(later).toEqual({
      outcome: 'absent',
      evidence: `No upload session was recorded for this attempt. None of the channel’s uploads since the attempt began is titled “${TITLE}”`,
    });
    expect((await reconciler().reconcile(account(), intent({}, { title: 'Cold brew at home' }), ctx())).outcome).toBe('absent');
  });

  it('is unknown when the page read holds only uploads newer than the attempt, or two match', async () => {
    const newer = f('playlist-items-uploads');
    newer.items.pop();
    newer.items[1].snippet.title = 'Pour-over basics';
    newer.nextPageToken = 'EAAaBlBUOkNESQ';
    uploadsListed(newer);
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('the video may be among older ones Herald did not read'),
    });

    const twice = f('playlist-items-uploads');
    twice.items[0].snippet.title = TITLE;
    uploadsListed(twice);
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining(`2 videos titled “${TITLE}” uploaded since the attempt began (a1B2c3D4e5F, ${VIDEO_ID})`),
    });
  });

  it('is unknown, with Google’s words, when the quota is spent or the grant lacks the scope', async () => {
    api.on('GET', CHANNELS, { status: 403, json: f('error-quota-exceeded') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('YouTube did not list the channel’s uploads: The request cannot be completed because you have exceeded your'),
    });

    api.on('GET', CHANNELS, { json: f('channels-uploads') });
    api.on('GET', PLAYLIST_ITEMS, { status: 403, json: f('error-insufficient-permissions') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('Request had insufficient authentication scopes.'),
    });
  });

  it('refreshes a refused token once, and is unknown when Google refuses the refresh too', async () => {
    const stored = () =>
      storedConnection('youtube', {
        externalId: CHANNEL,
        accountName: '@heraldcoffee',
        accessToken: 'ya29.old',
        refreshToken: '1//refresh',
        tokenExpiresAt: new Date(Date.now() + 3_600_000),
      });
    const app = { clientId: 'google-client', clientSecret: 'google-secret', tokenUrl: `${api.baseUrl}/token` };

    const { connection, tokens } = stored();
    api.on('PUT', SESSION_PATH, { status: 401, json: f('error-invalid-credentials') }, { status: 201, json: f('video-inserted') });
    api.on('POST', '/token', { json: f('token-refreshed') });
    expect((await reconciler(app).reconcile(connection, intent({ checkpoint: session() }), { tokens, now })).outcome).toBe('found');
    expect(api.calls('PUT', SESSION_PATH)[1]!.headers.authorization).toBe(`Bearer ${f('token-refreshed').access_token}`);

    const spent = stored();
    api.on('PUT', SESSION_PATH, { status: 401, json: f('error-invalid-credentials') });
    api.on('POST', '/token', { status: 400, json: f('token-refresh-refused') });
    expect(await reconciler(app).reconcile(spent.connection, intent({ checkpoint: session() }), { tokens: spent.tokens, now })).toEqual({
      outcome: 'unknown',
      evidence: 'YouTube refused the account’s token (Token has been expired or revoked.); reconnect the account, then settle this post',
    });
  });
});
