// The Instagram reconciler against the documented container and media shapes, served by the
// local HTTPS stand-in through the guarded client.
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/stories
//   https://developers.facebook.com/docs/graph-api/guides/error-handling
import { describe, expect, it } from 'vitest';
import type { AttemptIntent, ReconcileContext } from '../reconcile';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createInstagramReconciler } from './instagram-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const IG_USER = '17841400008460056';
const CONTAINER = '17889455560051444';
const MEDIA = '17920238422030506';
const PERMALINK = 'https://www.instagram.com/p/C8kT2xqNQ3Z/';
const MEDIA_EDGE = `/v25.0/${IG_USER}/media`;

const api = useFakePlatformApi();
const connection = liveConnection('instagram', { externalId: IG_USER, accountName: 'herald.coffee', accessToken: 'EAAG-instagram-token' });
const reconciler = () => createInstagramReconciler({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` });
const ctx = (): ReconcileContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T10:00:00Z') });
const intent = (extra: Partial<AttemptIntent> = {}): AttemptIntent => ({
  idempotencyKey: '0b7c4a52-54a5-4c57-9d7e-2f4c1f0c3b11',
  content: 'New roast is in ☕ #coffee',
  mediaUrls: ['https://cdn.herald.example/m/beans.jpg'],
  settings: {},
  startedAt: new Date('2026-11-27T09:30:00Z'),
  ...extra,
});
/** Nothing but reads reached Instagram. */
const onlyReads = () => expect(api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);

describe('Instagram reconcile from the account’s recent media', () => {
  it('finds the media created since the attempt began with the caption sent, as the publisher would have answered', async () => {
    api.on('GET', MEDIA_EDGE, { json: f('recent-media') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());

    expect(settled).toEqual({ outcome: 'found', result: { postedId: MEDIA, permalink: PERMALINK }, evidence: expect.stringContaining(`media ${MEDIA}`) });
    const [read, ...more] = api.requests;
    expect(more).toEqual([]); // the page went back past the attempt: no next page asked
    expect(read!.path).toBe(MEDIA_EDGE);
    expect(read!.query.get('fields')).toBe('id,caption,timestamp,permalink');
    expect(read!.query.get('limit')).toBe('50');
    expect(read!.headers.authorization).toBe('Bearer EAAG-instagram-token');
    expect(read!.query.has('access_token')).toBe(false);
    onlyReads();
  });

  it('is absent when the media read back past the attempt carry other captions', async () => {
    api.on('GET', MEDIA_EDGE, { json: f('recent-media') });
    const settled = await reconciler().reconcile(connection, intent({ content: 'Winter blend is back' }), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining('read back to 2026-11-20T09:00:03.000Z') });
    onlyReads();
  });

  it('does not take a media created before the attempt for it, even with the same caption', async () => {
    api.on('GET', MEDIA_EDGE, { json: f('recent-media') });
    // Begun a day later: both media with this caption are older.
    const settled = await reconciler().reconcile(connection, intent({ startedAt: new Date('2026-11-28T09:30:00Z') }), ctx());
    expect(settled.outcome).toBe('absent');
  });

  it('compares captions without the links and whitespace Instagram rewrites', async () => {
    api.on('GET', MEDIA_EDGE, { json: f('recent-media') });
    const settled = await reconciler().reconcile(connection, intent({ content: 'New roast is in ☕  #coffee\n https://herald.example/r' }), ctx());
    expect(settled.outcome).toBe('found');
  });

  it('is unknown when two media since the attempt carry the caption', async () => {
    const page = f('recent-media');
    page.data.splice(1, 0, { ...page.data[0], id: '17920238422030999', timestamp: '2026-11-27T09:31:40+0000' });
    api.on('GET', MEDIA_EDGE, { json: page });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringMatching(/^2 Instagram media .*17920238422030506, 17920238422030999/) });
  });

  it('is unknown when the 50 media read are all newer than the attempt and none matches', async () => {
    const data = Array.from({ length: 50 }, (_, i) => ({
      id: `1793000000000${String(i).padStart(4, '0')}`,
      caption: `Post ${i}`,
      timestamp: new Date(Date.parse('2026-11-27T09:59:00Z') - i * 20_000).toISOString().replace('.000Z', '+0000'),
      permalink: `https://www.instagram.com/p/X${i}/`,
    }));
    api.on('GET', MEDIA_EDGE, {
      json: { data, paging: { cursors: { after: 'QVFIUm1vcmUZD' }, next: `https://graph.facebook.com/v25.0/${IG_USER}/media?after=QVFIUm1vcmUZD` } },
    });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('older ones were not read') });
    expect(api.calls('GET', MEDIA_EDGE)).toHaveLength(1);
  });

  it('follows the next page until it reaches back past the attempt', async () => {
    const page = f('recent-media');
    const first = { data: [page.data[1]].map((m) => ({ ...m, timestamp: '2026-11-27T09:45:00+0000' })), paging: page.paging };
    api.on('GET', MEDIA_EDGE, { json: first }, { json: { data: page.data, paging: { cursors: {} } } });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled.outcome).toBe('found');
    const [, second] = api.calls('GET', MEDIA_EDGE);
    expect(second!.query.get('after')).toBe('QVFIUm1lZGlhQWZ0ZXIxZAZDZD');
    expect(second!.query.get('limit')).toBe('49');
  });

  it('is unknown with Graph’s words when the read fails', async () => {
    api.on('GET', MEDIA_EDGE, { status: 500, json: f('error-unknown') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled).toEqual({
      outcome: 'unknown',
      evidence: 'Instagram could not be asked: An unexpected error has occurred. Please retry your request later.',
    });
  });

  it('is unknown, without throwing, when the token is refused', async () => {
    api.on('GET', MEDIA_EDGE, { status: 400, json: f('error-token-expired') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled.outcome).toBe('unknown');
    expect(settled.evidence).toContain('Error validating access token: Session has expired');
  });
});

describe('Instagram reconcile from the recorded container', () => {
  const withContainer = (extra: Partial<AttemptIntent> = {}) => intent({ checkpoint: { containerId: CONTAINER }, ...extra });

  it('finds a PUBLISHED container’s media among the recent media', async () => {
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-published') });
    api.on('GET', MEDIA_EDGE, { json: f('recent-media') });
    const settled = await reconciler().reconcile(connection, withContainer(), ctx());

    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: MEDIA, permalink: PERMALINK },
      evidence: expect.stringMatching(new RegExp(`^Instagram container ${CONTAINER} is PUBLISHED as media ${MEDIA}`)),
    });
    expect(api.calls('GET', `/v25.0/${CONTAINER}`)[0]!.query.get('fields')).toBe('status_code,status');
    onlyReads();
  });

  it('is absent when the container ERRORed, with Instagram’s reason, and reads nothing else', async () => {
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-error') });
    const settled = await reconciler().reconcile(connection, withContainer(), ctx());
    expect(settled).toEqual({
      outcome: 'absent',
      evidence: `Instagram container ${CONTAINER} is ERROR (Error: Media upload has failed with error code 2207026): it was not published`,
    });
    expect(api.calls('GET', MEDIA_EDGE)).toEqual([]);
  });

  it('is absent when the container EXPIRED', async () => {
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-expired') });
    expect((await reconciler().reconcile(connection, withContainer(), ctx())).outcome).toBe('absent');
  });

  it('is absent when the container is ready but was never published', async () => {
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-finished') });
    const settled = await reconciler().reconcile(connection, withContainer(), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining('is FINISHED: it was never published') });
  });

  it('is unknown when the container is PUBLISHED but no recent media carries the caption', async () => {
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-published') });
    api.on('GET', MEDIA_EDGE, { json: f('recent-media') });
    const settled = await reconciler().reconcile(connection, withContainer({ content: 'Edited in the app since' }), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('is PUBLISHED, but Herald could not tell which media it became') });
  });

  it('falls back to the recent media when Graph no longer has the container', async () => {
    api.on('GET', `/v25.0/${CONTAINER}`, { status: 400, json: f('error-media-deleted') });
    api.on('GET', MEDIA_EDGE, { json: f('recent-media') });
    const settled = await reconciler().reconcile(connection, withContainer(), ctx());
    expect(settled.outcome).toBe('found');
  });

  it('is unknown with Graph’s words when the container cannot be read', async () => {
    api.on('GET', `/v25.0/${CONTAINER}`, { status: 400, json: f('error-rate-limit') });
    const settled = await reconciler().reconcile(connection, withContainer(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: 'Instagram could not be asked: Application request limit reached' });
  });

  it('finds a published story as the one story created since the attempt began', async () => {
    api.on('GET', `/v25.0/${CONTAINER}`, { json: f('container-published') });
    api.on('GET', `/v25.0/${IG_USER}/stories`, { json: f('stories') });
    const settled = await reconciler().reconcile(connection, withContainer({ settings: { videoType: 'story' } }), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: '17862253585030136', permalink: 'https://www.instagram.com/stories/herald.coffee/3512876200113407931/' },
      evidence: expect.stringContaining('is PUBLISHED as media 17862253585030136'),
    });
  });

  it('is unknown for a story without a container: it has no caption to match', async () => {
    const settled = await reconciler().reconcile(connection, intent({ settings: { videoType: 'story' } }), ctx());
    expect(settled.outcome).toBe('unknown');
    expect(api.requests).toEqual([]);
  });
});
