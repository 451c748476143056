// The Google Business Profile reconciler against the documented localPosts.list answer, served
// by the local HTTPS stand-in through the guarded client.
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/list
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts#LocalPost
//   https://developers.google.com/identity/protocols/oauth2/web-server#offline (refresh)
import { describe, expect, it } from 'vitest';
import type { AttemptIntent, ReconcileContext } from '../reconcile';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import type { GoogleBusinessOptions } from './google-business-publisher';
import { createGoogleBusinessReconciler } from './google-business-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const LOCATION = 'accounts/109876543210987654321/locations/1234567890123456789';
const POSTS_PATH = `/v4/${LOCATION}/localPosts`;
const POST = `${LOCATION}/localPosts/3034155272240349441`;

const api = useFakePlatformApi();
const connection = liveConnection('google_business', { externalId: LOCATION, accountName: 'Herald Coffee Soho', accessToken: 'ya29.current' });
const reconciler = (extra: Partial<GoogleBusinessOptions> = {}) =>
  createGoogleBusinessReconciler({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra });
const ctx = (tokens = new MemoryTokenStore()): ReconcileContext => ({ tokens, now: new Date('2026-11-27T10:00:00Z') });
const intent = (extra: Partial<AttemptIntent> = {}): AttemptIntent => ({
  idempotencyKey: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
  content: 'New winter blend in store today.',
  mediaUrls: [],
  settings: {},
  startedAt: new Date('2026-11-27T09:30:00Z'),
  ...extra,
});
const onlyReads = () => expect(api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);

describe('Google Business Profile reconcile from the location’s local posts', () => {
  it('finds the post created since the attempt began with the summary sent, as the publisher would have answered', async () => {
    api.on('GET', POSTS_PATH, { json: f('local-posts') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());

    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: POST, permalink: 'https://local.google.com/place?id=2930398276565902304&use=posts&lpsid=3034155272240349441' },
      evidence: `Google Business Profile post ${POST} (LIVE, created 2026-11-27T09:30:06.000Z) carries the summary and topic sent by the attempt begun 2026-11-27T09:30:00.000Z`,
    });
    const [read, ...more] = api.requests;
    expect(more).toEqual([]);
    expect(read!.query.get('pageSize')).toBe('50');
    expect(read!.headers.authorization).toBe('Bearer ya29.current');
    onlyReads();
  });

  it('matches an event post on its topic and event title too', async () => {
    api.on('GET', POSTS_PATH, { json: f('local-posts') });
    const event = { title: 'Jetpack week', startDate: '2026-12-01', endDate: '2026-12-07' };
    const at = new Date('2026-11-25T16:44:50Z');
    expect(
      await reconciler().reconcile(
        connection,
        intent({ content: 'Jetpack week starts Monday.', startedAt: at, settings: { topicType: 'EVENT', event } }),
        ctx(),
      ),
    ).toMatchObject({
      outcome: 'found',
      result: { postedId: `${LOCATION}/localPosts/3034120045718263302` },
    });
    const other = { ...event, title: 'Rocket week' };
    const settled = await reconciler().reconcile(
      connection,
      intent({ content: 'Jetpack week starts Monday.', startedAt: at, settings: { topicType: 'EVENT', event: other } }),
      ctx(),
    );
    expect(settled.outcome).toBe('absent');
  });

  it('does not take a post with another topic for it', async () => {
    api.on('GET', POSTS_PATH, { json: f('local-posts') });
    expect((await reconciler().reconcile(connection, intent({ settings: { topicType: 'OFFER' } }), ctx())).outcome).toBe('absent');
  });

  it('does not take a post created before the attempt for it, reading back past it', async () => {
    api.on('GET', POSTS_PATH, { json: f('local-posts') });
    const settled = await reconciler().reconcile(connection, intent({ startedAt: new Date('2026-11-28T09:00:00Z') }), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining('read back to 2026-11-19T08:00:00.000Z') });
  });

  it('is absent when the location has no more posts than were read', async () => {
    api.on('GET', POSTS_PATH, { json: { localPosts: f('local-posts').localPosts.slice(0, 1) } });
    const settled = await reconciler().reconcile(connection, intent({ content: 'Closed for a private event tonight' }), ctx());
    expect(settled).toEqual({
      outcome: 'absent',
      evidence: expect.stringContaining("None of the location's 1 most recent local posts"),
    });
  });

  it('is unknown when the posts read do not come newest first and there are more', async () => {
    const answer = f('local-posts');
    answer.localPosts.reverse();
    api.on('GET', POSTS_PATH, { json: answer });
    const settled = await reconciler().reconcile(connection, intent({ content: 'Closed for a private event tonight' }), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('older ones were not read') });
  });

  it('is unknown when two posts since the attempt carry the summary', async () => {
    const answer = f('local-posts');
    answer.localPosts.unshift({ ...answer.localPosts[0], name: `${LOCATION}/localPosts/3034155272240349999`, createTime: '2026-11-27T09:32:00.000Z' });
    api.on('GET', POSTS_PATH, { json: answer });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringMatching(/^2 local posts created since/),
    });
  });

  it('is unknown with Google’s words when the read fails, is throttled or the method is gone', async () => {
    api.on('GET', POSTS_PATH, { status: 429, json: f('error-rate-limit') });
    expect((await reconciler().reconcile(connection, intent(), ctx())).evidence).toBe(
      `Google Business Profile could not be asked: ${f('error-rate-limit').error.message}`,
    );
    api.on('GET', POSTS_PATH, { status: 404, json: f('error-method-not-found') });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'Google Business Profile could not be asked: Method not found.',
    });
  });

  it('is unknown, without throwing, when the token is refused and cannot be refreshed', async () => {
    api.on('GET', POSTS_PATH, { status: 401, json: f('error-invalid-credentials') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled.outcome).toBe('unknown');
    expect(settled.evidence).toContain('Request had invalid authentication credentials.');
  });

  it('refreshes a refused token and reads again', async () => {
    const { connection: row, tokens } = storedConnection('google_business', {
      externalId: LOCATION,
      accountName: 'Herald Coffee Soho',
      accessToken: 'ya29.old',
      refreshToken: '1//0gbusiness-refresh',
      tokenExpiresAt: new Date(Date.now() + 600_000),
    });
    api.on('GET', POSTS_PATH, { status: 401, json: f('error-invalid-credentials') }, { json: f('local-posts') });
    api.on('POST', '/token', { json: f('token-refreshed') });
    const google = { clientId: 'google-client.apps.googleusercontent.com', clientSecret: 'google-secret', tokenUrl: `${api.baseUrl}/token` };
    const settled = await reconciler(google).reconcile(row, intent(), ctx(tokens));
    expect(settled.outcome).toBe('found');
    expect(api.calls('GET', POSTS_PATH).map((r) => r.headers.authorization)).toEqual(['Bearer ya29.old', 'Bearer ya29.a0business-refreshed']);
    expect(tokens.get(row.id)).toMatchObject({ accessToken: 'ya29.a0business-refreshed' });
  });

  it('is unknown for a connection that names no location', async () => {
    const bare = liveConnection('google_business', { externalId: '109876543210987654321', accountName: 'Herald', accessToken: 'ya29.current' });
    expect((await reconciler().reconcile(bare, intent(), ctx())).outcome).toBe('unknown');
    expect(api.requests).toEqual([]);
  });
});
