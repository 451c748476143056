// The Reddit reconciler against the documented user listing and error answers, served by the
// local HTTPS stand-in through the guarded client.
//   https://www.reddit.com/dev/api#GET_user_{username}_{where} (where = submitted; sort=new, limit)
//   https://www.reddit.com/dev/api#listings (after, before, limit up to 100)
//   https://github.com/reddit-archive/reddit/wiki/JSON (t3: name, title, subreddit, created_utc, permalink)
//   https://www.reddit.com/dev/api#POST_api_submit (what the publisher records: json.data.name and url)
//   https://github.com/reddit-archive/reddit/wiki/OAuth2 (refresh; 401 for a refused token)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import type { AttemptIntent } from '../reconcile';
import { createRedditPublisher, type RedditOptions } from './reddit-publisher';
import { createRedditReconciler } from './reddit-reconcile';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const SUBMITTED = '/user/heraldcoffee/submitted';
const OURS = 't3_1h2x3y4';
const TITLE = 'Winter blend tasting notes';
const BODY = 'Dark chocolate, orange peel and a long finish. What are you brewing?';
const now = new Date('2026-11-27T12:05:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const noApp = { clientId: '', clientSecret: '' };
const reconciler = (extra: Partial<RedditOptions> = {}) => createRedditReconciler({ fetch: api.fetch, baseUrl: api.baseUrl, ...noApp, ...extra });
const account = () =>
  liveConnection('reddit', { externalId: 't2_1w72', accountName: 'u/heraldcoffee', accessToken: 'reddit-current', platformData: { username: 'heraldcoffee' } });
const intent = (settings: Record<string, unknown> = { subreddit: 'Coffee', title: TITLE }, extra: Partial<AttemptIntent> = {}): AttemptIntent => ({
  idempotencyKey: 'target-9',
  content: BODY,
  mediaUrls: [],
  settings,
  startedAt: new Date('2026-11-27T11:58:00Z'),
  ...extra,
});
/** `count` submissions to r/Coffee a second apart from `newest` on, none titled as sent. */
const listing = (count: number, newest: Date, after: string | null) => ({
  kind: 'Listing',
  data: {
    after,
    before: null,
    children: Array.from({ length: count }, (_, i) => ({
      kind: 't3',
      data: {
        subreddit: 'Coffee',
        title: `Another post ${i}`,
        name: `t3_other${i}`,
        permalink: `/r/Coffee/comments/other${i}/another_post/`,
        created_utc: newest.getTime() / 1000 - i,
      },
    })),
  },
});

describe('Reddit reconcile', () => {
  it('finds the post by subreddit, title and time, recorded as the publisher records it, without submitting', async () => {
    api.on('POST', '/api/submit', { json: f('submit-self') });
    const published = await publishing(createRedditPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, ...noApp })).publish(account(), {
      content: BODY,
      mediaUrls: [],
      settings: { subreddit: 'Coffee', title: TITLE },
    });
    api.reset();

    api.on('GET', SUBMITTED, { json: f('user-submitted-recent') });
    const settled = await reconciler().reconcile(account(), intent(), ctx());

    expect(settled).toEqual({ outcome: 'found', result: published, evidence: expect.stringContaining(`Reddit post ${OURS} in r/Coffee`) });
    expect(published).toEqual({ postedId: OURS, permalink: 'https://www.reddit.com/r/Coffee/comments/1h2x3y4/winter_blend_tasting_notes/' });
    const [read, ...more] = api.requests;
    expect(more).toHaveLength(0);
    expect(read!.method).toBe('GET');
    expect(read!.headers.authorization).toBe('bearer reddit-current');
    expect(read!.headers['user-agent']).toBeTruthy();
    expect(Object.fromEntries(read!.query)).toEqual({ sort: 'new', limit: '50', raw_json: '1' });
    expect(api.calls('POST', '/api/submit')).toHaveLength(0);
  });

  it('matches the subreddit as Reddit names it, whatever its case or an r/ prefix', async () => {
    api.on('GET', SUBMITTED, { json: f('user-submitted-recent') });
    const settled = await reconciler().reconcile(account(), intent({ subreddit: 'r/coffee', title: TITLE }), ctx());
    expect(settled).toMatchObject({ outcome: 'found', result: { postedId: OURS } });
  });

  it('answers absent when no submission since the attempt has the title in the subreddit: an older one, or one elsewhere, is not it', async () => {
    api.on('GET', SUBMITTED, { json: f('user-submitted-recent') });
    // At noon, the r/Coffee post of 11:58 and last week's are older than the attempt; the one of
    // 11:59:30 went to r/espresso.
    const later = await reconciler().reconcile(account(), intent(undefined, { startedAt: new Date('2026-11-27T12:00:00Z') }), ctx());
    expect(later).toEqual({ outcome: 'absent', evidence: `None of the account’s submissions since the attempt began is titled “${TITLE}” in r/Coffee` });

    expect((await reconciler().reconcile(account(), intent({ subreddit: 'Coffee', title: 'Closed on Monday' }), ctx())).outcome).toBe('absent');
  });

  it('is unknown when more submissions since the attempt are left unread, or two match', async () => {
    api.on('GET', SUBMITTED, { json: listing(50, new Date('2026-11-27T12:04:00Z'), 't3_other49') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('the post may be among older ones Herald did not read'),
    });

    const twice = f('user-submitted-recent');
    twice.data.children[0].data.subreddit = 'Coffee';
    api.on('GET', SUBMITTED, { json: twice });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining(`2 posts titled “${TITLE}” in r/Coffee since the attempt began (t3_1h2x3z9, ${OURS})`),
    });
  });

  it('stays unknown for a video post not listed yet: Reddit lists it once the video is processed', async () => {
    api.on('GET', SUBMITTED, { json: f('user-submitted-recent') });
    const video = intent(
      { subreddit: 'Coffee', title: 'Latte art in 30 seconds', posterUrl: 'https://cdn.herald.example/poster.jpg' },
      { mediaUrls: ['https://cdn.herald.example/latte.mp4'] },
    );
    expect(await reconciler().reconcile(account(), video, ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('Reddit lists a video post only once it has processed the video'),
    });
  });

  it('is unknown, with Reddit’s words, when the token is refused or the listing cannot be read', async () => {
    const { connection, tokens } = storedConnection('reddit', {
      externalId: 't2_1w72',
      accountName: 'u/heraldcoffee',
      accessToken: 'reddit-old',
      refreshToken: '12345-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    const app = { clientId: 'p-jcoLKBynTLew', clientSecret: 'reddit-secret', tokenUrl: `${api.baseUrl}/api/v1/access_token` };
    api.on('GET', SUBMITTED, { status: 401, json: f('error-unauthorized') }, { json: f('user-submitted-recent') });
    api.on('POST', '/api/v1/access_token', { json: f('token-refreshed') });
    expect((await reconciler(app).reconcile(connection, intent(), { tokens, now })).outcome).toBe('found');
    expect(api.calls('GET', SUBMITTED)[1]!.headers.authorization).toBe(`bearer ${f('token-refreshed').access_token}`);

    const spent = storedConnection('reddit', {
      externalId: 't2_1w72',
      accountName: 'u/heraldcoffee',
      accessToken: 'reddit-old',
      refreshToken: 'revoked-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', SUBMITTED, { status: 401, json: f('error-unauthorized') });
    api.on('POST', '/api/v1/access_token', { status: 400, json: { error: 'invalid_grant' } });
    expect(await reconciler(app).reconcile(spent.connection, intent(), { tokens: spent.tokens, now })).toEqual({
      outcome: 'unknown',
      evidence: 'Reddit refused the account’s token (invalid_grant); reconnect the account, then settle this post',
    });

    api.on('GET', SUBMITTED, { status: 403, json: f('error-forbidden') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'Reddit could not be asked for the account’s submissions: Forbidden',
    });

    api.on('GET', SUBMITTED, { status: 429, json: f('error-rate-limited') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('Too Many Requests') });
  });

  it('is unknown when the attempt recorded no subreddit or title', async () => {
    expect(await reconciler().reconcile(account(), intent({ subreddit: 'Coffee' }), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'The attempt recorded no subreddit or title to look for on Reddit',
    });
    expect(api.requests).toHaveLength(0);
  });
});
