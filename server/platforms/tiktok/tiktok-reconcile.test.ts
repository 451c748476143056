// The TikTok reconciler against the documented status answers, served by the local HTTPS
// stand-in through the guarded client.
//   https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status
//   https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info
//   https://developers.tiktok.com/docs/en/oauth-refresh-a-user-access-token
import { describe, expect, it } from 'vitest';
import type { AttemptIntent, ReconcileContext } from '../reconcile';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture, rawFixture } from '../testing/fake-platform-api';
import type { TikTokOptions } from './tiktok-publisher';
import { createTikTokReconciler } from './tiktok-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const raw = (name: string) => rawFixture(import.meta.dirname, name);
const POST_ID = '7393049800123456789';
const PUBLISH_ID = 'v_pub_url~v2-1.7393049236378436614';
const STATUS = '/v2/post/publish/status/fetch/';
const CREATOR = '/v2/post/publish/creator_info/query/';

const api = useFakePlatformApi();
const connection = liveConnection('tiktok', {
  externalId: '-000ZRL12psS7ya3PqAPG5pUxm82VTZ9yvIm',
  accountName: '@heraldcoffee',
  accessToken: 'act.tiktok-token',
});
const reconciler = (extra: Partial<TikTokOptions> = {}) =>
  createTikTokReconciler({ fetch: api.fetch, baseUrl: api.baseUrl, clientKey: '', clientSecret: '', ...extra });
const ctx = (tokens = new MemoryTokenStore()): ReconcileContext => ({ tokens, now: new Date('2026-11-27T10:00:00Z') });
const intent = (checkpoint?: Record<string, string>): AttemptIntent => ({
  idempotencyKey: '2c4e6a8b-0d1f-4357-9b2d-4f6a8c0e1d3b',
  content: 'Latte art in 30 seconds #coffee',
  mediaUrls: ['https://cdn.herald.example/m/latte.mp4'],
  settings: {},
  startedAt: new Date('2026-11-27T09:30:00Z'),
  checkpoint,
});
const recorded = { publishId: PUBLISH_ID, mediaType: 'video' };
/** Neither an init nor an upload reached TikTok. */
const noPosting = () => expect(api.requests.map((r) => r.path).filter((p) => p !== STATUS && p !== CREATOR)).toEqual([]);

describe('TikTok reconcile from the recorded publish_id', () => {
  it('finds a PUBLISH_COMPLETE post with its exact int64 id and the address the publisher builds', async () => {
    api.on('POST', STATUS, raw('status-complete'));
    api.on('POST', CREATOR, { json: f('creator-info') });
    const settled = await reconciler().reconcile(connection, intent(recorded), ctx());

    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: POST_ID, permalink: `https://www.tiktok.com/@heraldcoffee/video/${POST_ID}` },
      evidence: `TikTok publish ${PUBLISH_ID} is PUBLISH_COMPLETE as post ${POST_ID}`,
    });
    const [status] = api.calls('POST', STATUS);
    expect(status!.json()).toEqual({ publish_id: PUBLISH_ID });
    expect(status!.headers.authorization).toBe('Bearer act.tiktok-token');
    noPosting();
  });

  it('builds a photo post’s address, and falls back to the connection’s name when creator info fails', async () => {
    api.on('POST', STATUS, raw('status-complete'));
    api.on('POST', CREATOR, { status: 429, json: f('error-rate-limit') });
    const settled = await reconciler().reconcile(connection, intent({ publishId: 'p_pub_url~v2.7393049236378436615', mediaType: 'photo' }), ctx());
    expect(settled).toMatchObject({ outcome: 'found', result: { postedId: POST_ID, permalink: `https://www.tiktok.com/@heraldcoffee/photo/${POST_ID}` } });
  });

  it('settles a complete post without a public id with its publish_id, as the publisher does', async () => {
    api.on('POST', STATUS, { json: f('status-complete-private') });
    const settled = await reconciler().reconcile(connection, intent(recorded), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: PUBLISH_ID, permalink: null },
      evidence: expect.stringContaining('without a public post id'),
    });
    expect(api.calls('POST', CREATOR)).toEqual([]);
  });

  it('settles a publish still processing with its publish_id: TikTok has the post', async () => {
    api.on('POST', STATUS, { json: f('status-processing') });
    const settled = await reconciler().reconcile(connection, intent(recorded), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: PUBLISH_ID, permalink: null },
      evidence: expect.stringContaining('is PROCESSING_DOWNLOAD: TikTok has the post'),
    });
    noPosting();
  });

  it('is absent when TikTok says the publish FAILED, with its reason', async () => {
    api.on('POST', STATUS, { json: f('status-failed') });
    expect(await reconciler().reconcile(connection, intent(recorded), ctx())).toEqual({
      outcome: 'absent',
      evidence: `TikTok publish ${PUBLISH_ID} is FAILED (video_pull_failed): nothing was posted`,
    });
  });

  it('is unknown for a publish sent to the creator’s inbox instead', async () => {
    api.on('POST', STATUS, { json: { data: { status: 'SEND_TO_USER_INBOX' }, error: { code: 'ok', message: '', log_id: '1' } } });
    expect((await reconciler().reconcile(connection, intent(recorded), ctx())).outcome).toBe('unknown');
  });

  it('is unknown without a recorded publish_id, and asks nothing', async () => {
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('none was recorded') });
    expect(api.requests).toEqual([]);
  });

  it('is unknown with TikTok’s words when the status cannot be read', async () => {
    api.on('POST', STATUS, { status: 400, json: f('error-invalid-publish-id') });
    expect(await reconciler().reconcile(connection, intent(recorded), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'TikTok could not be asked: The publish_id is invalid.',
    });
    api.on('POST', STATUS, { status: 500, json: f('error-internal') });
    expect((await reconciler().reconcile(connection, intent(recorded), ctx())).evidence).toBe(
      'TikTok could not be asked: Something went wrong. Please try again later.',
    );
    // A failure TikTok reports on HTTP 200 is a failure too.
    api.on('POST', STATUS, { status: 200, json: f('error-rate-limit') });
    expect((await reconciler().reconcile(connection, intent(recorded), ctx())).evidence).toBe(
      'TikTok could not be asked: API rate limit was exceeded. Please try again later.',
    );
  });

  it('is unknown, without throwing, when the token is refused and cannot be refreshed', async () => {
    api.on('POST', STATUS, { status: 401, json: f('error-token-invalid') });
    expect(await reconciler().reconcile(connection, intent(recorded), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'TikTok could not be asked: The access token is invalid or not found in the request.',
    });
  });

  it('refreshes a refused token, stores the rotated tokens and asks again', async () => {
    const { connection: row, tokens } = storedConnection('tiktok', {
      externalId: '-000ZRL12psS7ya3PqAPG5pUxm82VTZ9yvIm',
      accountName: 'heraldcoffee',
      accessToken: 'act.old',
      refreshToken: 'rft.old',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('POST', STATUS, { status: 401, json: f('error-token-invalid') }, { json: f('status-failed') });
    api.on('POST', '/v2/oauth/token/', { json: f('token-refreshed') });
    const settled = await reconciler({ clientKey: 'aw-client-key', clientSecret: 'client-secret' }).reconcile(row, intent(recorded), ctx(tokens));
    expect(settled.outcome).toBe('absent');
    expect(api.calls('POST', STATUS).map((r) => r.headers.authorization)).toEqual(['Bearer act.old', `Bearer ${f('token-refreshed').access_token}`]);
    expect(tokens.get(row.id)!.refreshToken).toBe(f('token-refreshed').refresh_token);
  });
});
