// The X reconciler against the documented user Posts timeline and error answers, served by the
// local HTTPS stand-in through the guarded client.
//   https://docs.x.com/x-api/posts/timelines/introduction (GET /2/users/:id/tweets: start_time,
//     exclude, max_results, meta.next_token)
//   https://docs.x.com/x-api/posts/timelines/integrate (tweet.fields=created_at)
//   https://docs.x.com/x-api/fundamentals/edit-posts (edit_history_tweet_ids, first version first)
//   https://docs.x.com/x-api/posts/creation-of-a-post (what the publisher records: data.id)
//   https://docs.x.com/fundamentals/rate-limits (429 with x-rate-limit-reset)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import type { AttemptIntent } from '../reconcile';
import { createTwitterPublisher, type TwitterOptions } from './twitter-publisher';
import { createTwitterReconciler } from './twitter-reconcile';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const ME = '2244994945';
const OURS = '1994100000000000002';
const TIMELINE = `/2/users/${ME}/tweets`;
const SENT = 'Fresh batch at 7am & pastries at 8 https://heraldcoffee.example/menu';
const now = new Date('2026-11-27T12:05:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const reconciler = (extra: Partial<TwitterOptions> = {}) => createTwitterReconciler({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', ...extra });
const account = () => liveConnection('twitter', { externalId: ME, accountName: '@heraldcoffee', accessToken: 'x-user-token' });
const intent = (content = SENT, startedAt = new Date('2026-11-27T11:58:00Z')): AttemptIntent => ({
  idempotencyKey: 'target-7',
  content,
  mediaUrls: [],
  settings: {},
  startedAt,
});

describe('X reconcile', () => {
  it('finds the post with the text sent among the account’s posts since the attempt, as the publisher would have recorded it, without posting', async () => {
    api.on('POST', '/2/tweets', { status: 201, json: { data: { id: OURS, text: SENT, edit_history_tweet_ids: [OURS] } } });
    const published = await publishing(createTwitterPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '' })).publish(account(), {
      content: SENT,
      mediaUrls: [],
      settings: {},
    });
    api.reset();

    api.on('GET', TIMELINE, { json: f('user-posts') });
    const settled = await reconciler().reconcile(account(), intent(), ctx());

    expect(settled).toEqual({ outcome: 'found', result: published, evidence: expect.stringContaining(`X post ${OURS}`) });
    expect(published).toEqual({ postedId: OURS, permalink: `https://x.com/heraldcoffee/status/${OURS}` });
    const [read, ...more] = api.requests;
    expect(more).toHaveLength(0);
    expect(read!.method).toBe('GET');
    expect(read!.headers.authorization).toBe('Bearer x-user-token');
    expect(Object.fromEntries(read!.query)).toEqual({
      max_results: '50',
      start_time: '2026-11-27T11:57:00Z',
      exclude: 'retweets',
      'tweet.fields': 'created_at,edit_history_tweet_ids',
    });
    expect(api.calls('POST', '/2/tweets')).toHaveLength(0);
  });

  it('answers absent when nothing since the attempt has the text: an older post with it, or a recent one with other text, is not this one', async () => {
    api.on('GET', TIMELINE, { json: f('user-posts') });
    // Both posts with this text were written before an attempt that began at noon.
    const later = await reconciler().reconcile(account(), intent(SENT, new Date('2026-11-27T12:00:00Z')), ctx());
    expect(later).toEqual({ outcome: 'absent', evidence: 'None of the account’s 3 posts since the attempt began has the text sent' });
    expect((await reconciler().reconcile(account(), intent('Closed on Monday'), ctx())).outcome).toBe('absent');

    api.on('GET', TIMELINE, { json: f('user-posts-empty') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'absent',
      evidence: 'The account has written no post on X since the attempt began',
    });
  });

  it('is unknown when the account wrote more posts since the attempt than were read, or two have the text', async () => {
    const page = f('user-posts');
    page.data.splice(1, 2);
    page.meta.next_token = '7140dibdnow9c7btw421dyz6jism75z99gyxd8egarsc4';
    api.on('GET', TIMELINE, { json: page });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('the account wrote more since the attempt began'),
    });

    const twice = f('user-posts');
    twice.data[2].created_at = '2026-11-27T11:58:10.000Z';
    api.on('GET', TIMELINE, { json: twice });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining(`2 posts with the text sent since the attempt began (${OURS}, 1991500000000000001)`),
    });
  });

  it('records an edited post under its first version’s id, the one the publish was answered with', async () => {
    const edited = f('user-posts');
    edited.data[1].id = '1994100000000000009';
    edited.data[1].edit_history_tweet_ids = [OURS, '1994100000000000009'];
    api.on('GET', TIMELINE, { json: edited });
    const settled = await reconciler().reconcile(account(), intent(), ctx());
    expect(settled).toMatchObject({ outcome: 'found', result: { postedId: OURS, permalink: `https://x.com/heraldcoffee/status/${OURS}` } });
  });

  it('refreshes an expired token, stores the new pair and reads again', async () => {
    const { connection, tokens } = storedConnection('twitter', {
      externalId: ME,
      accountName: 'heraldcoffee',
      accessToken: 'x-old',
      refreshToken: 'x-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', TIMELINE, { status: 401, json: f('error-unauthorized') }, { json: f('user-posts') });
    api.on('POST', '/2/oauth2/token', { json: f('token-refreshed') });
    const settled = await reconciler({ clientId: 'x-client' }).reconcile(connection, intent(), { tokens, now });
    expect(settled.outcome).toBe('found');
    expect(api.calls('GET', TIMELINE)[1]!.headers.authorization).toBe(`Bearer ${f('token-refreshed').access_token}`);
    expect(tokens.get(connection.id)).toMatchObject({ refreshToken: f('token-refreshed').refresh_token });
  });

  it('is unknown, with X’s words, when the token is refused or the timeline cannot be read', async () => {
    const { connection, tokens } = storedConnection('twitter', {
      externalId: ME,
      accountName: 'heraldcoffee',
      accessToken: 'x-old',
      refreshToken: 'x-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', TIMELINE, { status: 401, json: f('error-unauthorized') });
    api.on('POST', '/2/oauth2/token', { status: 400, json: f('token-refresh-refused') });
    expect(await reconciler({ clientId: 'x-client' }).reconcile(connection, intent(), { tokens, now })).toEqual({
      outcome: 'unknown',
      evidence: expect.stringMatching(/^X refused the account’s token \(Value passed for the token was invalid\.\); reconnect/),
    });

    api.on('GET', TIMELINE, { status: 403, json: f('error-client-forbidden') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('you must use keys and tokens from a Twitter developer App that is attached to a Project'),
    });

    api.on('GET', TIMELINE, { json: f('user-posts-not-found') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'X did not return the account’s posts: Could not find user with id: [2244994945].',
    });

    api.on('GET', TIMELINE, { status: 429, json: f('error-rate-limit') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('Too Many Requests') });
  });
});
