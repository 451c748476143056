// The Threads reconciler against the documented container and threads shapes, served by the
// local HTTPS stand-in through the guarded client.
//   https://developers.facebook.com/documentation/threads/troubleshooting (container status)
//   https://developers.facebook.com/documentation/threads/retrieve-and-discover-posts/retrieve-posts
//   https://developers.facebook.com/docs/threads/get-started/long-lived-tokens (th_refresh_token)
//   https://developers.facebook.com/docs/graph-api/guides/error-handling
import { describe, expect, it } from 'vitest';
import type { AttemptIntent, ReconcileContext } from '../reconcile';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createThreadsReconciler } from './threads-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const USER = '26308861195437268';
const CONTAINER = '18052749883012345';
const MEDIA = '18064532145098765';
const PERMALINK = 'https://www.threads.com/@heraldcoffee/post/DC1xYz2AbCd';
const THREADS = `/v1.0/${USER}/threads`;

const api = useFakePlatformApi();
const connection = liveConnection('threads', { externalId: USER, accountName: 'heraldcoffee', accessToken: 'THAAJ-token' });
const reconciler = () => createThreadsReconciler({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v1.0` });
const ctx = (tokens = new MemoryTokenStore()): ReconcileContext => ({ tokens, now: new Date('2026-11-27T10:00:00Z') });
const intent = (extra: Partial<AttemptIntent> = {}): AttemptIntent => ({
  idempotencyKey: '5d1f0e8a-77c2-4d3b-a1f4-9b0c2e6d4a10',
  content: 'Fresh batch at 7am',
  mediaUrls: [],
  settings: {},
  startedAt: new Date('2026-11-27T09:30:00Z'),
  ...extra,
});
const onlyReads = () => expect(api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);

describe('Threads reconcile from the account’s recent threads', () => {
  it('finds the thread created since the attempt began with the text sent, as the publisher would have answered', async () => {
    api.on('GET', THREADS, { json: f('recent-threads') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());

    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: MEDIA, permalink: PERMALINK },
      evidence: expect.stringContaining(`Threads post ${MEDIA}`),
    });
    const [read, ...more] = api.requests;
    expect(more).toEqual([]);
    expect(read!.query.get('fields')).toBe('id,text,timestamp,permalink');
    expect(read!.query.get('limit')).toBe('50');
    expect(read!.headers.authorization).toBe('Bearer THAAJ-token');
    onlyReads();
  });

  it('is absent when the threads read back past the attempt carry other text', async () => {
    api.on('GET', THREADS, { json: f('recent-threads') });
    const settled = await reconciler().reconcile(connection, intent({ content: 'Oat milk is free this week' }), ctx());
    expect(settled).toEqual({
      outcome: 'absent',
      evidence: expect.stringContaining("None of the account's 3 most recent Threads posts (read back to 2026-11-24T06:05:41.000Z)"),
    });
    onlyReads();
  });

  it('does not take a thread created before the attempt for it', async () => {
    api.on('GET', THREADS, { json: f('recent-threads') });
    const settled = await reconciler().reconcile(connection, intent({ startedAt: new Date('2026-11-27T12:00:00Z') }), ctx());
    expect(settled.outcome).toBe('absent');
  });

  it('follows the after cursor of a page without `next` while it has not reached back past the attempt', async () => {
    const { data, paging } = f('recent-threads');
    api.on('GET', THREADS, { json: { data: [{ ...data[1], timestamp: '2026-11-27T09:50:00+0000' }], paging } }, { json: { data, paging: { cursors: {} } } });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled.outcome).toBe('found');
    expect(api.calls('GET', THREADS)[1]!.query.get('after')).toBe('QVFIUnRocmVhZHNBZnRlcgZDZD');
  });

  it('is unknown with Threads’ words when the read fails', async () => {
    api.on('GET', THREADS, { status: 500, json: f('error-unknown') });
    expect(await reconciler().reconcile(connection, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: 'Threads could not be asked: An unexpected error has occurred. Please retry your request later.',
    });
  });

  it('extends a token about to lapse before reading, and stores it', async () => {
    const { connection: row, tokens } = storedConnection('threads', {
      externalId: USER,
      accountName: 'heraldcoffee',
      accessToken: 'THAAJ-old',
      tokenExpiresAt: new Date(Date.now() + 2 * 24 * 3_600_000),
    });
    api.on('GET', '/refresh_access_token', { json: f('token-refreshed') });
    api.on('GET', THREADS, { json: f('recent-threads') });
    const settled = await reconciler().reconcile(row, intent(), ctx(tokens));
    expect(settled.outcome).toBe('found');
    expect(api.calls('GET', THREADS)[0]!.headers.authorization).toBe('Bearer THAAJ-refreshed-long-lived-token');
    expect(tokens.get(row.id)!.accessToken).toBe('THAAJ-refreshed-long-lived-token');
  });

  it('is unknown, without throwing, when the token is refused and cannot be extended', async () => {
    api.on('GET', THREADS, { status: 400, json: f('error-token-expired') });
    api.on('GET', '/refresh_access_token', { status: 400, json: f('error-token-expired') });
    const settled = await reconciler().reconcile(connection, intent(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: `Threads could not be asked: ${f('error-token-expired').error.message}` });
  });
});

describe('Threads reconcile from the recorded container', () => {
  const withContainer = (extra: Partial<AttemptIntent> = {}) => intent({ checkpoint: { containerId: CONTAINER }, ...extra });

  it('finds a PUBLISHED container’s post among the recent threads', async () => {
    api.on('GET', `/v1.0/${CONTAINER}`, { json: f('container-published') });
    api.on('GET', THREADS, { json: f('recent-threads') });
    const settled = await reconciler().reconcile(connection, withContainer(), ctx());
    expect(settled).toEqual({
      outcome: 'found',
      result: { postedId: MEDIA, permalink: PERMALINK },
      evidence: expect.stringMatching(new RegExp(`^Threads container ${CONTAINER} is PUBLISHED as post ${MEDIA}`)),
    });
    expect(api.calls('GET', `/v1.0/${CONTAINER}`)[0]!.query.get('fields')).toBe('status,error_message');
    onlyReads();
  });

  it('is absent when the container ERRORed, with Threads’ reason', async () => {
    api.on('GET', `/v1.0/${CONTAINER}`, { json: f('container-error') });
    expect(await reconciler().reconcile(connection, withContainer(), ctx())).toEqual({
      outcome: 'absent',
      evidence: `Threads container ${CONTAINER} is ERROR (FAILED_DOWNLOADING_VIDEO): it was not published`,
    });
    expect(api.calls('GET', THREADS)).toEqual([]);
  });

  it('is absent when the container EXPIRED or never left processing', async () => {
    api.on('GET', `/v1.0/${CONTAINER}`, { json: f('container-expired') });
    expect((await reconciler().reconcile(connection, withContainer(), ctx())).outcome).toBe('absent');
    api.on('GET', `/v1.0/${CONTAINER}`, { json: f('container-in-progress') });
    expect(await reconciler().reconcile(connection, withContainer(), ctx())).toEqual({
      outcome: 'absent',
      evidence: expect.stringContaining('is IN_PROGRESS: it was never published'),
    });
  });

  it('is unknown when the container is PUBLISHED but two recent threads carry the text', async () => {
    const page = f('recent-threads');
    page.data.unshift({ ...page.data[0], id: '18064532145099999', timestamp: '2026-11-27T09:31:00+0000' });
    api.on('GET', `/v1.0/${CONTAINER}`, { json: f('container-published') });
    api.on('GET', THREADS, { json: page });
    const settled = await reconciler().reconcile(connection, withContainer(), ctx());
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('but Herald could not tell which post it became: 2 Threads posts') });
  });

  it('falls back to the recent threads when Threads no longer has the container', async () => {
    api.on('GET', `/v1.0/${CONTAINER}`, { status: 400, json: f('error-post-deleted') });
    api.on('GET', THREADS, { json: f('recent-threads') });
    expect((await reconciler().reconcile(connection, withContainer(), ctx())).outcome).toBe('found');
  });
});
