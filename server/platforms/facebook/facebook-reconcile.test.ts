// The Facebook reconciler against the documented Page post and video shapes, served by the
// local HTTPS stand-in through the guarded client.
//   https://developers.facebook.com/docs/graph-api/reference/page/published_posts/
//   https://developers.facebook.com/docs/video-api/guides/get-videos
//   https://developers.facebook.com/docs/graph-api/guides/error-handling
import { describe, expect, it } from 'vitest';
import type { AttemptIntent, ReconcileContext } from '../reconcile';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createFacebookReconciler } from './facebook-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const PAGE = '546349135390552';
const POSTS = `/v25.0/${PAGE}/published_posts`;
const VIDEOS = `/v25.0/${PAGE}/videos`;

const api = useFakePlatformApi();
const connection = liveConnection('facebook', { externalId: PAGE, accountName: 'heraldcoffee', accessToken: 'EAAPage-token' });
const reconciler = () => createFacebookReconciler({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0` });
const ctx = (): ReconcileContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T10:00:00Z') });
const intent = (extra: Partial<AttemptIntent> = {}): AttemptIntent => ({
  idempotencyKey: 'c3a9e2f1-0d4b-4e8a-b6c7-1f2e3d4c5b6a',
  content: 'Our autumn menu is live: https://heraldcoffee.example/menu. See you soon',
  mediaUrls: [],
  settings: {},
  startedAt: new Date('2026-11-27T09:30:00Z'),
  ...extra,
});
const onlyReads = () => expect(api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);

describe('Facebook reconcile from the Page’s recent posts', () => {
  it('finds a text post by its message and time, as the publisher would have answered', async () => {
    api.on('GET', POSTS, { json: f('published-posts') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());

    // The same id and address the publisher answers for this post (facebook-publisher.test.ts).
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: '546349135390552_1116689038356556', permalink: 'https://www.facebook.com/546349135390552/posts/1116689038356556' },
      evidence: expect.stringContaining('Facebook post 546349135390552_1116689038356556 (created 2026-11-27T09:30:05.000Z) carries the message sent'),
    });
    expect(api.requests.map((r) => r.path)).toEqual([POSTS]); // no media: no videos asked, and no next page
    const [read] = api.requests;
    expect(read!.query.get('fields')).toBe('id,message,created_time,permalink_url');
    expect(read!.query.get('limit')).toBe('50');
    expect(read!.headers.authorization).toBe('Bearer EAAPage-token');
    onlyReads();
  });

  it('finds a one-photo post among the posts once the Page’s videos rule a video out', async () => {
    api.on('GET', VIDEOS, { json: f('page-videos') });
    api.on('GET', POSTS, { json: f('published-posts') });
    const settled = await reconciler().reconcile(connection, intent({ content: 'Latte art', mediaUrls: ['https://cdn.herald.example/m/latte.jpg'] }), ctx());
    expect(settled).toMatchObject({
      outcome: 'found',
      result: { postedId: '546349135390552_1116692608356199', permalink: 'https://www.facebook.com/546349135390552/posts/1116692608356199' },
    });
    expect(api.requests.map((r) => r.path)).toEqual([VIDEOS, POSTS]);
    expect(api.requests[0]!.query.get('fields')).toBe('id,description,created_time,permalink_url');
  });

  it('finds a video by its description, answered with the video’s id and full address like the publisher', async () => {
    api.on('GET', VIDEOS, { json: f('page-videos') });
    const settled = await reconciler().reconcile(
      connection,
      intent({ content: 'Pour-over, slowly', mediaUrls: ['https://cdn.herald.example/m/pour.mp4'] }),
      ctx(),
    );
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: '1116695488355911', permalink: 'https://www.facebook.com/heraldcoffee/videos/1116695488355911/' },
      evidence: expect.stringContaining('Facebook video 1116695488355911'),
    });
    expect(api.calls('GET', POSTS)).toEqual([]);
  });

  it('is absent when neither the videos nor the posts read back past the attempt carry the text', async () => {
    api.on('GET', VIDEOS, { json: f('page-videos') });
    api.on('GET', POSTS, { json: f('published-posts') });
    const settled = await reconciler().reconcile(
      connection,
      intent({ content: 'Gift cards are here', mediaUrls: ['https://cdn.herald.example/m/card.jpg'] }),
      ctx(),
    );
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringMatching(/Facebook videos .*; None of the account's 3 most recent Facebook posts/) });
    onlyReads();
  });

  it('does not take a post created before the attempt for it', async () => {
    api.on('GET', POSTS, { json: f('published-posts') });
    const settled = await reconciler().reconcile(connection, intent({ content: 'Closed Monday for a staff day' }), ctx());
    expect(settled.outcome).toBe('absent');
  });

  it('is unknown when two posts since the attempt carry the message', async () => {
    const page = f('published-posts');
    page.data[0].message = page.data[1].message;
    api.on('GET', POSTS, { json: page });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringMatching(/^2 Facebook posts created since the attempt began/) });
  });

  it('is unknown when the videos could not be read back far enough, even though no post matches', async () => {
    const { data } = f('page-videos');
    const videos = Array.from({ length: 50 }, (_, i) => ({ ...data[0], id: `11167${i}`, description: `Clip ${i}`, created_time: '2026-11-27T09:50:00+0000' }));
    api.on('GET', VIDEOS, {
      json: { data: videos, paging: { cursors: { after: 'QVFIUm1vcmUZD' }, next: 'https://graph.facebook.com/v25.0/x?after=QVFIUm1vcmUZD' } },
    });
    api.on('GET', POSTS, { json: f('published-posts') });
    const settled = await reconciler().reconcile(connection, intent({ content: 'Clip 99', mediaUrls: ['https://cdn.herald.example/m/clip'] }), ctx());
    expect(settled).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('Facebook videos read carries the description sent, but they do not reach back'),
    });
  });

  it('is unknown with Graph’s words when the read fails', async () => {
    api.on('GET', POSTS, { status: 500, json: f('error-unknown') });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'Facebook could not be asked: An unexpected error has occurred. Please retry your request later.',
    });
  });

  it('is unknown, without throwing, when the Page token is refused or the Page throttled', async () => {
    api.on('GET', POSTS, { status: 400, json: f('error-token-revoked') });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: `Facebook could not be asked: ${f('error-token-revoked').error.message}`,
    });
    api.on('GET', POSTS, { status: 400, json: f('error-page-throttled') });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'Facebook could not be asked: (#32) Page request limit reached',
    });
  });
});
