// The Bluesky reconciler against the documented record lookup and its errors, served by the local
// HTTPS stand-in (as the account's PDS) through the guarded client.
//   https://docs.bsky.app/docs/api/com-atproto-repo-get-record ({ uri, cid, value }; 400 RecordNotFound)
//   https://github.com/bluesky-social/atproto/blob/main/lexicons/com/atproto/repo/getRecord.json
//   https://docs.bsky.app/docs/advanced-guides/rate-limits (429, RateLimit-Reset)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import type { AttemptIntent } from '../reconcile';
import { createBlueskyPublisher } from './bluesky-publisher';
import { createBlueskyReconciler } from './bluesky-reconcile';
import { recordKeyFor } from './bluesky-richtext';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const xrpc = (nsid: string) => `/xrpc/${nsid}`;
const GET_RECORD = xrpc('com.atproto.repo.getRecord');
const CREATE_RECORD = xrpc('com.atproto.repo.createRecord');
const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';
const DATA = { did: DID, handle: 'heraldcoffee.bsky.social', pds: 'https://morel.us-east.host.bsky.network' };
const TARGET = '7f0c2f8e-2b1a-4c55-9d1e-4b7f0a3c9e21';
const now = new Date('2026-11-27T12:05:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const account = () => liveConnection('bluesky', { externalId: DID, accountName: '@heraldcoffee.bsky.social', accessToken: 'access-jwt', platformData: DATA });
const reconciler = (extra = {}) => createBlueskyReconciler({ fetch: api.fetch, baseUrl: api.baseUrl, ...extra });
const intent = (idempotencyKey = TARGET): AttemptIntent => ({
  idempotencyKey,
  content: 'Fresh batch at 7am',
  mediaUrls: [],
  settings: {},
  startedAt: new Date('2026-11-27T11:58:00Z'),
});
/** A fixture whose at-uri names the record key `rkey`. */
const withKey = (name: string, rkey: string) => JSON.parse(JSON.stringify(f(name)).replaceAll('RKEY', rkey));

describe('Bluesky reconcile', () => {
  it('finds the record under the target’s key and settles it as the publisher would have, without writing anything', async () => {
    const rkey = recordKeyFor(TARGET);
    api.on('POST', CREATE_RECORD, { json: withKey('create-record', rkey) });
    const published = await publishing(createBlueskyPublisher({ fetch: api.fetch, baseUrl: api.baseUrl })).publish(account(), {
      content: 'Fresh batch at 7am',
      mediaUrls: [],
      settings: { linkCard: false },
      idempotencyKey: TARGET,
    });
    api.reset();

    api.on('GET', GET_RECORD, { json: withKey('get-record-post', rkey) });
    const settled = await reconciler().reconcile(account(), intent(), ctx());

    expect(settled).toEqual({ outcome: 'found', result: published, evidence: expect.stringContaining(`at://${DID}/app.bsky.feed.post/${rkey}`) });
    expect(published).toEqual({
      postedId: `at://${DID}/app.bsky.feed.post/${rkey}`,
      permalink: `https://bsky.app/profile/heraldcoffee.bsky.social/post/${rkey}`,
    });
    const [lookup, ...others] = api.requests;
    expect(others).toHaveLength(0);
    expect(lookup!.method).toBe('GET');
    expect(Object.fromEntries(lookup!.query)).toEqual({ repo: DID, collection: 'app.bsky.feed.post', rkey });
    // getRecord needs no session: a lapsed token does not stand in the way.
    expect(lookup!.headers.authorization).toBeUndefined();
    expect(api.calls('POST', CREATE_RECORD)).toHaveLength(0);
  });

  it('answers absent when the PDS has no record under the key', async () => {
    api.on('GET', GET_RECORD, { status: 400, json: withKey('error-record-not-found-post', recordKeyFor(TARGET)) });
    const settled = await reconciler().reconcile(account(), intent(), ctx());
    expect(settled).toEqual({ outcome: 'absent', evidence: expect.stringContaining('Could not locate record') });
  });

  it('asks only for this target’s key: another target’s record does not answer for it', async () => {
    const ours = recordKeyFor(TARGET);
    api.on('GET', GET_RECORD, (req) =>
      req.query.get('rkey') === ours
        ? { status: 400, json: withKey('error-record-not-found-post', ours) }
        : { json: withKey('get-record-post', req.query.get('rkey')!) },
    );
    expect((await reconciler().reconcile(account(), intent(), ctx())).outcome).toBe('absent');
    expect((await reconciler().reconcile(account(), intent('another-target'), ctx())).outcome).toBe('found');
  });

  it('is unknown, with Bluesky’s words, when the PDS answers anything but the record or RecordNotFound', async () => {
    api.on('GET', GET_RECORD, { status: 400, json: f('error-repo-not-found') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining(`Could not find repo: ${DID}`),
    });

    api.on('GET', GET_RECORD, { status: 429, json: f('error-rate-limit') });
    expect(await reconciler().reconcile(account(), intent(), ctx())).toEqual({ outcome: 'unknown', evidence: expect.stringContaining('Rate Limit Exceeded') });
  });

  it('is unknown when the PDS cannot be reached or no PDS is stored', async () => {
    const unreachable = await createBlueskyReconciler({ fetch: api.fetch, baseUrl: 'https://127.0.0.1:1' }).reconcile(account(), intent(), ctx());
    expect(unreachable.outcome).toBe('unknown');

    const noServer = liveConnection('bluesky', { externalId: DID, accountName: '@heraldcoffee.bsky.social', accessToken: 'access-jwt' });
    expect(await createBlueskyReconciler({ fetch: api.fetch }).reconcile(noServer, intent(), ctx())).toEqual({
      outcome: 'unknown',
      evidence: expect.stringContaining('No Bluesky server is stored for this account'),
    });
  });
});
