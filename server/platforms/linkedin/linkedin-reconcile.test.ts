// The LinkedIn reconciler against the documented Posts API finder answer, served by the local
// HTTPS stand-in through the guarded client.
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api (Find Posts by Authors)
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format
//   https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
import { describe, expect, it } from 'vitest';
import type { AttemptIntent, ReconcileContext } from '../reconcile';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import type { LinkedInOptions } from './linkedin-publisher';
import { createLinkedInReconciler } from './linkedin-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const SHARE = 'urn:li:share:7210987654321098752';

const api = useFakePlatformApi();
const connection = liveConnection('linkedin', { externalId: '8675309', accountName: 'ada-herald', accessToken: 'AQV-linkedin-token' });
const reconciler = (extra: Partial<LinkedInOptions> = {}) =>
  createLinkedInReconciler({
    fetch: api.fetch,
    baseUrl: api.baseUrl,
    oauthBaseUrl: `${api.baseUrl}/oauth/v2`,
    version: '202605',
    clientId: '',
    clientSecret: '',
    ...extra,
  });
const ctx = (tokens = new MemoryTokenStore()): ReconcileContext => ({ tokens, now: new Date('2026-11-27T10:00:00Z') });
const intent = (extra: Partial<AttemptIntent> = {}): AttemptIntent => ({
  idempotencyKey: '7e0c5f3a-9b1d-4c2e-8f6a-3d4b5c6e7f80',
  content: 'Hiring (remote) @ Herald #jobs',
  mediaUrls: [],
  settings: {},
  startedAt: new Date('2026-11-27T09:30:00Z'),
  ...extra,
});
const onlyReads = () => expect(api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);

describe('LinkedIn reconcile from the author’s posts', () => {
  it('finds the post created since the attempt began with the commentary sent, as the publisher would have answered', async () => {
    api.on('GET', '/rest/posts', { json: f('posts-by-author') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());

    expect(settled).toEqual({
      outcome: 'found',
      // The id and address the publisher answers for this post (linkedin-publisher.test.ts).
      result: { postedId: SHARE, permalink: `https://www.linkedin.com/feed/update/${SHARE}/` },
      evidence: `LinkedIn post ${SHARE} (created 2026-11-27T09:30:07.000Z) carries the commentary sent by the attempt begun 2026-11-27T09:30:00.000Z`,
    });
    const [read, ...more] = api.requests;
    expect(more).toEqual([]);
    expect(Object.fromEntries(read!.query)).toEqual({ author: 'urn:li:person:8675309', q: 'author', count: '50', sortBy: 'CREATED' });
    expect(read!.headers).toMatchObject({
      authorization: 'Bearer AQV-linkedin-token',
      'linkedin-version': '202605',
      'x-restli-protocol-version': '2.0.0',
      'x-restli-method': 'FINDER',
    });
    onlyReads();
  });

  it('asks for a page’s posts by its organization URN', async () => {
    api.on('GET', '/rest/posts', { json: f('posts-by-author') });
    const page = liveConnection('linkedin', { externalId: 'urn:li:organization:2414183', accountName: 'Herald Coffee', accessToken: 'AQV-page' });
    await reconciler().reconcile(page, intent(), ctx());
    expect(api.requests[0]!.query.get('author')).toBe('urn:li:organization:2414183');
  });

  it('reads mentions and hashtags back from little text before comparing', async () => {
    api.on('GET', '/rest/posts', { json: f('posts-by-author') });
    const settled = await reconciler().reconcile(
      connection,
      intent({ content: 'Our Q4 roadmap is out, thanks Herald Coffee', startedAt: new Date('2026-11-26T14:59:30Z') }),
      ctx(),
    );
    expect(settled).toMatchObject({ outcome: 'found', result: { postedId: 'urn:li:ugcPost:7210612345678901234' } });
  });

  it('is absent when none of the author’s posts carries the commentary', async () => {
    api.on('GET', '/rest/posts', { json: f('posts-by-author') });
    const settled = await reconciler().reconcile(connection, intent({ content: 'We are closed for the holidays' }), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining("None of the author's 3 most recent LinkedIn posts") });
    onlyReads();
  });

  it('does not take a post created before the attempt for it', async () => {
    api.on('GET', '/rest/posts', { json: f('posts-by-author') });
    const settled = await reconciler().reconcile(connection, intent({ startedAt: new Date('2026-11-28T08:00:00Z') }), ctx());
    expect(settled.outcome).toBe('absent');
  });

  it('is unknown when two posts since the attempt carry the commentary', async () => {
    const answer = f('posts-by-author');
    answer.elements[1] = { ...answer.elements[0], id: 'urn:li:share:7210987654321099999', createdAt: 1795771900000 };
    api.on('GET', '/rest/posts', { json: answer });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringMatching(/^2 LinkedIn posts created since the attempt began/) });
  });

  it('is absent from a full page that reaches back past the attempt, and unknown from one that does not', async () => {
    const { elements } = f('posts-by-author');
    const page = (last: number) =>
      Array.from({ length: 50 }, (_, i) => ({
        ...elements[1],
        id: `urn:li:share:72100000000000000${String(i).padStart(2, '0')}`,
        commentary: `Post ${i}`,
        createdAt: last + (49 - i) * 10_000,
      }));
    api.on('GET', '/rest/posts', {
      json: { paging: { start: 0, count: 50, links: [{ rel: 'next', href: '/rest/posts?start=50' }] }, elements: page(1795700000000) },
    });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'absent',
      evidence: expect.stringContaining('read back to 2026-11-26T13:33:20.000Z'),
    });

    api.on('GET', '/rest/posts', {
      json: { paging: { start: 0, count: 50, links: [{ rel: 'next', href: '/rest/posts?start=50' }] }, elements: page(1795772000000) },
    });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('older ones were not read'),
    });
  });

  it('is unknown with LinkedIn’s words when a member’s posts may not be read (r_member_social)', async () => {
    api.on('GET', '/rest/posts', { status: 403, json: f('error-member-social-forbidden') });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'LinkedIn could not be asked: Not enough permissions to access: partnerApiPostsExternal.FINDER-author.20260501',
    });
  });

  it('is unknown with LinkedIn’s words when the read fails or is throttled', async () => {
    api.on('GET', '/rest/posts', { status: 500, json: f('error-server') });
    expect((await reconciler().reconcile(connection, intent(), ctx())).evidence).toBe('LinkedIn could not be asked: Internal Server Error');
    api.on('GET', '/rest/posts', { status: 429, json: f('error-throttled') });
    expect((await reconciler().reconcile(connection, intent(), ctx())).evidence).toBe(
      'LinkedIn could not be asked: Resource level throttle APPLICATION DAY limit for calls to this resource is reached.',
    );
  });

  it('refreshes a refused token and reads again, storing the new tokens', async () => {
    const { connection: row, tokens } = storedConnection('linkedin', {
      externalId: '8675309',
      accountName: 'ada-herald',
      accessToken: 'AQV-old',
      refreshToken: 'AQW-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', '/rest/posts', { status: 401, json: f('error-token-expired') }, { json: f('posts-by-author') });
    api.on('POST', '/oauth/v2/accessToken', { json: f('token-refreshed') });
    const settled = await reconciler({ clientId: 'app-id', clientSecret: 'app-secret' }).reconcile(row, intent(), ctx(tokens));
    expect(settled.outcome).toBe('found');
    expect(api.calls('GET', '/rest/posts').map((r) => r.headers.authorization)).toEqual(['Bearer AQV-old', `Bearer ${f('token-refreshed').access_token}`]);
    expect(tokens.get(row.id)!.refreshToken).toBe(f('token-refreshed').refresh_token);
  });

  it('is unknown, without throwing, when the token is refused and cannot be refreshed', async () => {
    api.on('GET', '/rest/posts', { status: 401, json: f('error-token-expired') });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'LinkedIn could not be asked: The token used in the request has been revoked by the user',
    });
  });
});
