// A four-part thread on each network Herald posts threads to (catalogue/thread-posting.ts):
// every part after the first goes out as a reply to the part before, in the network's own
// reply field, against local stand-ins built from the documented shapes:
//   X:        https://docs.x.com/x-api/posts/manage-tweets/introduction
//             POST /2/tweets { text, reply: { in_reply_to_tweet_id } } → 201 { data: { id, text } }
//   Mastodon: https://docs.joinmastodon.org/methods/statuses/#create
//             POST /api/v1/statuses { status, in_reply_to_id } → Status { id, url }
//   Bluesky:  https://docs.bsky.app/docs/advanced-guides/posts#replies
//             app.bsky.feed.post { reply: { root: { uri, cid }, parent: { uri, cid } } };
//             https://docs.bsky.app/docs/api/app-bsky-feed-get-posts (the parent's cid and its own reply.root)
//   Threads:  https://developers.facebook.com/docs/threads/reply-management
//             POST /{threads-user-id}/threads { media_type: TEXT, text, reply_to_id } → { id }, then /threads_publish
import { describe, expect, it } from 'vitest';
import { THREAD_POSTING, postsThreads } from './catalogue';
import type { Publisher, PublishableConnection } from './publisher';
import { liveConnection, publishing, useFakePlatformApi } from './testing/adapter-tests';
import { PLATFORMS } from '@/server/shared/platforms';
import { createTwitterPublisher } from './twitter/twitter-publisher';
import { createMastodonPublisher } from './mastodon/mastodon-publisher';
import { createBlueskyPublisher } from './bluesky/bluesky-publisher';
import { createThreadsPublisher } from './threads/threads-publisher';

const api = useFakePlatformApi();
const PARTS = ['1/4 Our autumn menu is here.', '2/4 Pumpkin spice is back.', '3/4 New: maple pecan cold brew.', '4/4 See you Monday!'];

/** Publishes the parts in order, each answering the one before, as delivery does; the posted ids. */
async function postThread(publisher: Publisher, connection: PublishableConnection): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, content] of PARTS.entries()) {
    const result = await publishing(publisher).publish(connection, {
      content,
      mediaUrls: [],
      settings: {},
      idempotencyKey: `target-1:part-${index + 1}`,
      ...(ids.length ? { replyTo: ids.at(-1) } : {}),
    });
    ids.push(result.postedId);
  }
  return ids;
}

describe('threads on the networks that chain replies', () => {
  it('names exactly X, Bluesky, Threads and Mastodon, and says why not for every other network', () => {
    expect(PLATFORMS.filter(postsThreads).sort()).toEqual(['bluesky', 'mastodon', 'threads', 'twitter']);
    for (const platform of PLATFORMS) {
      const entry = THREAD_POSTING[platform];
      if ('none' in entry) expect(entry.none.length).toBeGreaterThan(10);
      else expect(entry.docs).toMatch(/^https:\/\//);
    }
  });

  it('X: each part is a reply to the part before', async () => {
    let next = 1;
    api.on('POST', '/2/tweets', (request) => ({ status: 201, json: { data: { id: `19000000000000000${next++}`, text: request.json().text } } }));
    const connection = liveConnection('twitter', { externalId: '2244994945', accountName: 'heraldcoffee', accessToken: 'x-user-token' });

    const ids = await postThread(createTwitterPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '' }), connection);

    const bodies = api.calls('POST', '/2/tweets').map((r) => r.json());
    expect(bodies.map((b) => b.text)).toEqual(PARTS);
    expect(bodies[0].reply).toBeUndefined();
    expect(bodies.slice(1).map((b) => b.reply)).toEqual(ids.slice(0, 3).map((id) => ({ in_reply_to_tweet_id: id })));
  });

  it('Mastodon: each part is a reply to the part before, with its own idempotency key', async () => {
    let next = 1;
    api.on('POST', '/api/v1/statuses', () => {
      const id = `10327011582604897${next++}`;
      return { json: { id, url: `https://mastodon.example/@heraldcoffee/${id}` } };
    });
    const connection = liveConnection('mastodon', {
      externalId: '14715@mastodon.example',
      accountName: 'heraldcoffee@mastodon.example',
      accessToken: 'mastodon-token',
      platformData: { instanceUrl: 'https://mastodon.example', maxChars: 500 },
    });

    const ids = await postThread(createMastodonPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }), connection);

    const calls = api.calls('POST', '/api/v1/statuses');
    expect(calls.map((r) => r.json().in_reply_to_id)).toEqual([undefined, ...ids.slice(0, 3)]);
    expect(calls.map((r) => r.headers['idempotency-key'])).toEqual([1, 2, 3, 4].map((n) => `target-1:part-${n}`));
  });

  it('Bluesky: each part names the part before as its parent and the first part as the root', async () => {
    const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';
    // A small PDS: records by at-uri, each with a cid; getPosts answers with what was written.
    const records = new Map<string, { cid: string; record: Record<string, unknown> }>();
    api.on('POST', '/xrpc/com.atproto.repo.createRecord', (request) => {
      const { repo, rkey, record } = request.json();
      const uri = `at://${repo}/app.bsky.feed.post/${rkey}`;
      const cid = `bafyrei${rkey}`;
      records.set(uri, { cid, record });
      return { json: { uri, cid } };
    });
    api.on('GET', '/xrpc/app.bsky.feed.getPosts', (request) => {
      const uri = request.query.get('uris')!;
      const found = records.get(uri);
      return { json: { posts: found ? [{ uri, cid: found.cid, record: found.record }] : [] } };
    });
    const connection = liveConnection('bluesky', {
      externalId: DID,
      accountName: '@heraldcoffee.bsky.social',
      accessToken: 'access-jwt',
      platformData: { did: DID, handle: 'heraldcoffee.bsky.social', pds: 'https://morel.us-east.host.bsky.network' },
    });

    const ids = await postThread(createBlueskyPublisher({ fetch: api.fetch, baseUrl: api.baseUrl }), connection);

    const ref = (uri: string) => ({ uri, cid: records.get(uri)!.cid });
    const written = ids.map((uri) => records.get(uri)!.record);
    expect(written.map((r) => r.text)).toEqual(PARTS);
    expect(written[0]!.reply).toBeUndefined();
    for (const n of [1, 2, 3]) expect(written[n]!.reply).toEqual({ root: ref(ids[0]!), parent: ref(ids[n - 1]!) });
  });

  it('Threads: each part’s container answers the part before (reply_to_id), then is published', async () => {
    const USER = '26308861195437268';
    let container = 0;
    let media = 0;
    api.on('POST', `/v1.0/${USER}/threads`, () => ({ json: { id: `1805274988301234${++container}` } }));
    api.on('GET', /^\/v1\.0\/1805274988301234\d$/, { json: { status: 'FINISHED', id: 'x' } });
    api.on('POST', `/v1.0/${USER}/threads_publish`, () => ({ json: { id: `1806453214509876${++media}` } }));
    api.on('GET', /^\/v1\.0\/1806453214509876\d$/, (request) => ({
      json: { permalink: `https://www.threads.com/@heraldcoffee/post/${request.path.split('/').pop()}` },
    }));
    const connection = liveConnection('threads', { externalId: USER, accountName: 'heraldcoffee', accessToken: 'THAAJ-token' });

    const ids = await postThread(createThreadsPublisher({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v1.0`, pollIntervalMs: 0, pollAttempts: 3 }), connection);

    const containers = api.calls('POST', `/v1.0/${USER}/threads`).map((r) => Object.fromEntries(r.form()));
    expect(containers.map((c) => c.text)).toEqual(PARTS);
    expect(containers.map((c) => c.reply_to_id)).toEqual([undefined, ...ids.slice(0, 3)]);
  });
});
