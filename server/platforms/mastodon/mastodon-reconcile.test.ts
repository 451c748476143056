// The Mastodon reconciler against the documented account statuses and error answers, served by
// the local HTTPS stand-in (as the account's server) through the guarded client.
//   https://docs.joinmastodon.org/methods/accounts/#statuses (limit max 40, max_id, exclude_reblogs)
//   https://docs.joinmastodon.org/entities/Status/ (id, created_at, content as HTML, url)
//   https://docs.joinmastodon.org/entities/Error/ ({ error }; 401 for a revoked token)
//   https://docs.joinmastodon.org/methods/statuses/#create (what the publisher returns: id and url)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import type { AttemptIntent } from '../reconcile';
import { createMastodonPublisher } from './mastodon-publisher';
import { createMastodonReconciler } from './mastodon-reconcile';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const STATUSES = '/api/v1/accounts/14715/statuses';
const OURS = '113557180000000002';
const SENT = 'Fresh batch at 7am with @alice@other.example & friends: https://heraldcoffee.example/menu\n\n#coffee';
const now = new Date('2026-11-27T12:05:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const reconciler = () => createMastodonReconciler({ fetch: api.fetch, baseUrl: api.baseUrl });
const account = () =>
  liveConnection('mastodon', {
    externalId: '14715@mastodon.example',
    accountName: '@heraldcoffee@mastodon.example',
    accessToken: 'masto-token',
    platformData: { instanceUrl: 'https://mastodon.example', accountId: '14715', maxChars: 500 },
  });
const intent = (content = SENT, startedAt = new Date('2026-11-27T11:58:00Z')): AttemptIntent => ({
  idempotencyKey: 'target-42',
  content,
  mediaUrls: [],
  settings: {},
  startedAt,
});
/** `count` statuses written a second apart, newest first, from `newest` on, none with the text sent. */
const others = (count: number, newest: Date, firstId = 113557300000000000n) =>
  Array.from({ length: count }, (_, i) => ({
    ...f('account-statuses')[0],
    id: String(firstId - BigInt(i)),
    created_at: new Date(newest.getTime() - i * 1000).toISOString(),
    content: `<p>Something else ${i}</p>`,
  }));

describe('Mastodon reconcile', () => {
  it('finds the status with the text sent and settles it as the publisher would have, without posting', async () => {
    const status = f('account-statuses')[1];
    api.on('POST', '/api/v1/statuses', { json: status });
    const published = await publishing(createMastodonPublisher({ fetch: api.fetch, baseUrl: api.baseUrl })).publish(account(), {
      content: SENT,
      mediaUrls: [],
      settings: {},
      idempotencyKey: 'target-42',
    });
    api.reset();

    api.on('GET', STATUSES, { json: f('account-statuses') });
    const settled = await reconciler().reconcile(account(), intent(), ctx());

    expect(settled).toEqual({ outcome: 'found', result: published, evidence: expect.stringContaining(`status ${OURS}`) });
    expect(published).toEqual({ postedId: OURS, permalink: `https://mastodon.example/@heraldcoffee/${OURS}` });
    const [read, ...more] = api.requests;
    expect(more).toHaveLength(0);
    expect(read!.method).toBe('GET');
    expect(read!.headers.authorization).toBe('Bearer masto-token');
    expect(Object.fromEntries(read!.query)).toEqual({ limit: '40', exclude_reblogs: 'true' });
    expect(api.calls('POST', '/api/v1/statuses')).toHaveLength(0);
  });

  it('answers absent when no status since the attempt has the text: an older one with the same text, or a recent one with other text, is not it', async () => {
    api.on('GET', STATUSES, { json: f('account-statuses') });
    // "Fresh batch at 7am" was posted on 20 November, a week before this attempt.
    const settled = await reconciler().reconcile(account(), intent('Fresh batch at 7am'), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining('None of the account’s statuses since the attempt began') });

    expect((await reconciler().reconcile(account(), intent('Closed on Monday'), ctx())).outcome).toBe('absent');
  });

  it('reads a second page, up to 50 statuses, and stays unknown when every one is newer than the attempt', async () => {
    const newest = new Date('2026-11-27T12:04:00Z');
    api.on('GET', STATUSES, (req) => ({
      json: req.query.get('max_id') ? others(10, new Date(newest.getTime() - 40_000), 113557299999999960n) : others(40, newest),
    }));
    const settled = await reconciler().reconcile(account(), intent(), ctx());

    const [first, second, ...more] = api.calls('GET', STATUSES);
    expect(more).toHaveLength(0);
    expect(first!.query.get('limit')).toBe('40');
    expect(second!.query.get('limit')).toBe('10');
    expect(second!.query.get('max_id')).toBe('113557299999999961');
    expect(settled).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('may be among older ones') });
  });

  it('is unknown when two statuses since the attempt have the text sent', async () => {
    const [, ours] = f('account-statuses');
    api.on('GET', STATUSES, { json: [{ ...ours, id: '113557190000000009', created_at: '2026-11-27T11:58:30.000Z' }, ours] });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining(`2 statuses with the text sent since the attempt began (113557190000000009, ${OURS})`),
    });
  });

  it('is unknown, with Mastodon’s words, when the server refuses the token or the read', async () => {
    api.on('GET', STATUSES, { status: 401, json: f('error-token-invalid') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringMatching(/^Mastodon refused the account’s token \(The access token is invalid\); reconnect/),
    });

    api.on('GET', STATUSES, { status: 403, json: f('error-outside-scopes') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('This action is outside the authorized scopes'),
    });

    api.on('GET', STATUSES, { status: 503, body: 'Service Unavailable' });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('Service Unavailable') });
  });

  it('is unknown when the server cannot be reached', async () => {
    const settled = await createMastodonReconciler({ fetch: api.fetch, baseUrl: 'https://127.0.0.1:1' }).reconcile(account(), intent(), ctx());
    expect(settled.outcome).toBe('unknown');
  });
});
