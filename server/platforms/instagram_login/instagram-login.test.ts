// Instagram with Instagram Login against the documented graph.instagram.com shapes, served by
// the local HTTPS stand-in through the guarded client: the Instagram adapters with this
// flavour's host and token refresh.
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/content-publishing
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login (ig_refresh_token)
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/comment-moderation
//   https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights
//   https://developers.facebook.com/docs/graph-api/guides/error-handling
import { describe, expect, it } from 'vitest';
import { TokenExpiredError } from '../publisher';
import { failure, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { commentsClientFor } from '../comments-clients';
import { insightsReaderFor } from '../insights-readers';
import { liveAdapters } from '../live-adapters';
import { reconcilerFor } from '../reconcilers';
import {
  createInstagramLoginCommentsClient,
  createInstagramLoginInsightsReader,
  createInstagramLoginPublisher,
  createInstagramLoginReconciler,
} from './instagram-login';

const f = (name: string) => fixture(import.meta.dirname, name);
const IG_USER = '17841400008460056';
const CONTAINER = '17889455560051444';
const MEDIA = '17920238422030506';
const HOUR = 3_600_000;

const api = useFakePlatformApi();
const options = () => ({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, pollIntervalMs: 0, pollAttempts: 3 });
/** A connection whose 60-day token still has weeks to run (no refresh due). */
const account = (expiresInMs = 30 * 24 * HOUR, accessToken = 'IGAAR-token') =>
  storedConnection('instagram_login', { externalId: IG_USER, accountName: 'herald.coffee', accessToken, tokenExpiresAt: new Date(Date.now() + expiresInMs) });

function happyPath() {
  api.on('POST', `/v25.0/${IG_USER}/media`, { json: f('container-created') });
  api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-finished') });
  api.on('POST', `/v25.0/${IG_USER}/media_publish`, { json: f('media-published') });
  api.on('GET', `/v25.0/${MEDIA}`, { json: f('media-permalink') });
}

describe('Instagram Login publishing', () => {
  it('is the live adapter, reconciler, comments client and insights reader of instagram_login', () => {
    const live = { provider: 'live', platform: 'instagram_login' as const };
    expect(liveAdapters.instagram_login).toBeDefined();
    expect(reconcilerFor(live)).not.toBeNull();
    expect(commentsClientFor(live)?.source).toBe('instagram_login');
    expect(insightsReaderFor(live)?.source).toBe('instagram_login');
  });

  it('publishes an image through the container protocol on graph.instagram.com with the Instagram user token', async () => {
    happyPath();
    const { connection, tokens } = account();
    const result = await publishing(createInstagramLoginPublisher(options()), tokens).publish(connection, {
      content: 'New roast is in ☕ #coffee',
      mediaUrls: ['https://cdn.herald.example/m/beans.jpg'],
      mediaKinds: ['image'],
      settings: {},
    });
    expect(result).toEqual({ postedId: MEDIA, permalink: 'https://www.instagram.com/p/C8kT2xqNQ3Z/' });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v25.0/${IG_USER}/media`,
      `GET /v25.0/${CONTAINER}`,
      `POST /v25.0/${IG_USER}/media_publish`,
      `GET /v25.0/${MEDIA}`,
    ]);
    const [create, , publish] = api.requests;
    expect(create!.headers.authorization).toBe('Bearer IGAAR-token');
    expect(Object.fromEntries(create!.form())).toEqual({ image_url: 'https://cdn.herald.example/m/beans.jpg', caption: 'New roast is in ☕ #coffee' });
    expect(Object.fromEntries(publish!.form())).toEqual({ creation_id: CONTAINER });
    expect(tokens.saved).toEqual([]);
  });

  it('publishes a reel, waiting for the container to finish', async () => {
    happyPath();
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-in-progress') }, { json: f('container-finished') });
    const { connection, tokens } = account();
    await publishing(createInstagramLoginPublisher(options()), tokens).publish(connection, {
      content: 'Behind the roaster',
      mediaUrls: ['https://cdn.herald.example/m/roaster.mp4'],
      mediaKinds: ['video'],
      settings: { videoType: 'reel' },
    });
    expect(Object.fromEntries(api.calls('POST', `/v25.0/${IG_USER}/media`)[0]!.form())).toMatchObject({ media_type: 'REELS', share_to_feed: 'true' });
    expect(api.calls('GET', `/v25.0/${CONTAINER}`)).toHaveLength(2);
  });

  it('passes Instagram’s refusal on verbatim, without publishing', async () => {
    api.on('POST', `/v25.0/${IG_USER}/media`, { status: 400, json: f('error-aspect-ratio') });
    const { connection, tokens } = account();
    const error = await failure(
      publishing(createInstagramLoginPublisher(options()), tokens).publish(connection, {
        content: 'x',
        mediaUrls: ['https://cdn.herald.example/m/wide.jpg'],
        settings: {},
      }),
    );
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The aspect ratio is not supported.');
    expect(error.opts).toEqual({ status: 400 });
    expect(api.calls('POST', `/v25.0/${IG_USER}/media_publish`)).toHaveLength(0);
  });

  it('extends a token due within the week with ig_refresh_token before publishing, and stores it at once', async () => {
    happyPath();
    api.on('GET', '/refresh_access_token', { json: f('token-refreshed') });
    const { connection, tokens } = account(2 * 24 * HOUR, 'IGAAR-old');
    await publishing(createInstagramLoginPublisher(options()), tokens).publish(connection, {
      content: 'x',
      mediaUrls: ['https://cdn.herald.example/m/a.jpg'],
      settings: {},
    });
    const [refresh] = api.calls('GET', '/refresh_access_token');
    expect(Object.fromEntries(refresh!.query)).toEqual({ grant_type: 'ig_refresh_token', access_token: 'IGAAR-old' });
    expect(api.calls('POST', `/v25.0/${IG_USER}/media`)[0]!.headers.authorization).toBe('Bearer IGAAR-refreshed-long-lived-token');
    expect(tokens.saved).toHaveLength(1);
    const stored = tokens.saved[0]!.token;
    expect(stored.accessToken).toBe('IGAAR-refreshed-long-lived-token');
    expect(stored.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 59 * 24 * HOUR);
  });

  it('reports an expired token Instagram will no longer extend as a connection to reconnect', async () => {
    api.on('POST', `/v25.0/${IG_USER}/media`, { status: 400, json: f('error-token-expired') });
    api.on('GET', '/refresh_access_token', { status: 400, json: f('error-token-refresh-refused') });
    const { connection, tokens } = account();
    const error = await failure(
      publishing(createInstagramLoginPublisher(options()), tokens).publish(connection, {
        content: 'x',
        mediaUrls: ['https://cdn.herald.example/m/a.jpg'],
        settings: {},
      }),
    );
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-token-refresh-refused').error.message);
    expect(api.calls('GET', '/refresh_access_token')).toHaveLength(1);
    expect(api.calls('POST', `/v25.0/${IG_USER}/media_publish`)).toHaveLength(0);
  });

  it('waits out a 429 with Retry-After, then publishes once', async () => {
    happyPath();
    api.on(
      'POST',
      `/v25.0/${IG_USER}/media_publish`,
      { status: 429, headers: { 'retry-after': '0' }, json: { error: { message: 'Application request limit reached', code: 4 } } },
      { json: f('media-published') },
    );
    const { connection, tokens } = account();
    const result = await publishing(createInstagramLoginPublisher(options()), tokens).publish(connection, {
      content: 'x',
      mediaUrls: ['https://cdn.herald.example/m/a.jpg'],
      settings: {},
    });
    expect(result.postedId).toBe(MEDIA);
    expect(api.calls('POST', `/v25.0/${IG_USER}/media_publish`)).toHaveLength(2);
  });
});

describe('Instagram Login reconcile, comments and insights', () => {
  it('settles an interrupted publish from the container Herald recorded', async () => {
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-published') });
    api.on('GET', `/v25.0/${IG_USER}/media`, { json: f('recent-media') });
    const { connection, tokens } = account();
    const settled = await createInstagramLoginReconciler(options()).reconcile(
      connection,
      {
        idempotencyKey: 'k',
        content: 'New roast is in ☕ #coffee',
        mediaUrls: ['https://cdn.herald.example/m/beans.jpg'],
        settings: {},
        startedAt: new Date('2026-11-27T09:30:00Z'),
        checkpoint: { containerId: CONTAINER },
      },
      { tokens, now: new Date('2026-11-27T10:00:00Z') },
    );
    expect(settled).toMatchObject({ outcome: 'found', result: { postedId: MEDIA } });
    expect(api.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('reads the comments under a media and replies to one', async () => {
    api.on('GET', `/v25.0/${MEDIA}/comments`, { json: { ...f('comments-page-1'), paging: {} } });
    api.on('GET', /\/replies$/, { json: { data: [] } });
    api.on('POST', /\/replies$/, { json: f('reply-created') });
    const { connection, tokens } = account();
    const client = createInstagramLoginCommentsClient(options());
    const read = await client.readComments(
      connection,
      { postedId: MEDIA, publishedAt: new Date('2026-11-25T09:00:00Z') },
      { tokens, now: new Date('2026-11-27T12:00:00Z') },
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.comments[0]).toMatchObject({ id: '17873440459141021', authorHandle: '@maya.brews', parentId: null });
    expect(read.comments.some((c) => c.parentId === '17873440459141021')).toBe(true);
    const reply = await client.reply!(connection, { postedId: MEDIA, commentId: '17873440459141021' }, 'It is!', {
      tokens,
      now: new Date('2026-11-27T12:00:00Z'),
    });
    expect(reply.id).toBe(f('reply-created').id);
  });

  it('reads insights one media at a time, and a media Instagram no longer has as not returned', async () => {
    api.on('GET', `/v25.0/${MEDIA}/insights`, { json: f('media-insights') });
    api.on('GET', '/v25.0/17999999999999999/insights', { status: 400, json: f('error-media-deleted') });
    const { connection, tokens } = account();
    const out = await createInstagramLoginInsightsReader(options()).readPostMetrics(
      connection,
      [MEDIA, '17999999999999999'].map((postedId) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') })),
      { tokens, now: new Date('2026-11-27T12:00:00Z') },
    );
    expect(api.calls('GET', `/v25.0/${MEDIA}/insights`)[0]!.query.get('metric')).toBe('views,reach,likes,comments,shares,saved');
    const first = out.get(MEDIA);
    expect(first?.ok && first.metrics.views).toEqual({ value: 1320, reason: null, networkName: 'views' });
    expect(first?.ok && first.metrics.saves.value).toBe(12);
    expect(first?.ok && first.metrics.impressions.value).toBeNull();
    expect(out.get('17999999999999999')).toEqual({ ok: false, reason: expect.stringContaining('did not return this media') });
  });
});
