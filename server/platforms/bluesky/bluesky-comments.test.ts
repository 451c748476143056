// The Bluesky comments client against the documented thread, record and error answers, served by
// the local HTTPS stand-in (as the account's PDS) through the guarded client.
//   https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread (threadViewPost, notFoundPost,
//     blockedPost, threadgate; 400 NotFound)
//   https://docs.bsky.app/docs/api/app-bsky-feed-get-posts (the cids of strong refs)
//   https://docs.bsky.app/docs/api/com-atproto-repo-create-record (reply and like records)
//   https://docs.bsky.app/docs/api/com-atproto-repo-put-record, …-get-record (the threadgate's hiddenReplies)
//   https://docs.bsky.app/docs/api/com-atproto-server-refresh-session (refresh)
// Bluesky posts cannot be edited, so there is no edited comment to read here.
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostComments } from '../comments';
import { createBlueskyCommentsClient } from './bluesky-comments';
import { recordKeyFor } from './bluesky-richtext';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const xrpc = (nsid: string) => `/xrpc/${nsid}`;
const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';
const DATA = { did: DID, handle: 'heraldcoffee.bsky.social', pds: 'https://morel.us-east.host.bsky.network' };
const POST = `at://${DID}/app.bsky.feed.post/3lbqn7yyp4k2a`;
const POST_CID = 'bafyreihx3k7wz2a4vq6l5cdqw5p4m4fqg7x7z3w6xv6u5b4y3t2s1r0qpa';
const ALICE = 'at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3lbqo2bbbb22a';
const OURS = `at://${DID}/app.bsky.feed.post/3lbqo4cccc22b`;
const ALICE_AGAIN = 'at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3lbqo6dddd22c';
const ALICE_AGAIN_CID = 'bafyreifm3a6jq2rz3yq7bq4ehk2b6ncl6bq3w4y5f7r2jzxkgq5v6tq2ie';
const SPAM = 'at://did:plc:jfhpnnst6flqway4eaeqzj2a/app.bsky.feed.post/3lbqp1ffff22e';
const now = new Date('2026-11-27T12:00:00Z');
const ctx = (extra = {}) => ({ tokens: new MemoryTokenStore(), now, ...extra });
const post = (postedId = POST) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') });
const client = () => createBlueskyCommentsClient({ fetch: api.fetch, baseUrl: api.baseUrl });
const account = () => liveConnection('bluesky', { externalId: DID, accountName: '@heraldcoffee.bsky.social', accessToken: 'access-jwt', platformData: DATA });
const commentsOf = (r: PostComments) => {
  if (!r.ok) throw new Error(`no comments: ${r.reason}`);
  return r;
};

describe('Bluesky comments', () => {
  it('reads the whole reply tree flattened, each with its parent; a deleted reply is left out, a hidden one says so', async () => {
    api.on('GET', xrpc('app.bsky.feed.getPostThread'), { json: f('get-post-thread') });
    const { comments, complete } = commentsOf(await client().readComments(account(), post(), ctx()));

    const [req] = api.calls('GET', xrpc('app.bsky.feed.getPostThread'));
    expect(req!.query.get('uri')).toBe(POST);
    expect(req!.query.get('depth')).toBe('1000');
    expect(req!.query.get('parentHeight')).toBe('0');
    expect(req!.headers.authorization).toBe('Bearer access-jwt');

    expect(complete).toBe(true);
    expect(comments.map((c) => [c.id, c.parentId])).toEqual([
      [ALICE, null],
      [OURS, ALICE],
      [ALICE_AGAIN, OURS],
      [SPAM, null],
    ]);
    expect(comments[0]).toEqual({
      id: ALICE,
      parentId: null,
      authorId: 'did:plc:ewvi7nxzyoun6zhxrhs64oiz',
      authorName: 'Alice',
      authorHandle: '@alice.bsky.social',
      authorAvatarUrl: 'https://cdn.bsky.app/img/avatar/plain/did:plc:ewvi7nxzyoun6zhxrhs64oiz/bafkreialice@jpeg',
      text: 'Is the Ethiopian one back?',
      createdAt: new Date('2026-11-25T10:12:00.000Z'),
      permalink: 'https://bsky.app/profile/alice.bsky.social/post/3lbqo2bbbb22a',
      hidden: false,
      fromAccount: false,
    });
    expect(comments[1]).toMatchObject({ fromAccount: true, authorHandle: '@heraldcoffee.bsky.social' });
    expect(comments[3]).toMatchObject({ hidden: true, authorName: 'beanbot.example.com' });
  });

  it('reads the hidden replies from the account’s own threadgate record when the AppView leaves it out', async () => {
    const thread = f('get-post-thread');
    delete thread.threadgate;
    api.on('GET', xrpc('app.bsky.feed.getPostThread'), { json: thread });
    api.on('GET', xrpc('com.atproto.repo.getRecord'), { json: f('get-record-threadgate') });
    const { comments } = commentsOf(await client().readComments(account(), post(), ctx()));
    expect(comments.filter((c) => c.hidden).map((c) => c.id)).toEqual([SPAM]);
    expect(Object.fromEntries(api.calls('GET', xrpc('com.atproto.repo.getRecord'))[0]!.query)).toEqual({
      repo: DID,
      collection: 'app.bsky.feed.threadgate',
      rkey: '3lbqn7yyp4k2a',
    });

    api.on('GET', xrpc('com.atproto.repo.getRecord'), { status: 400, json: f('error-record-not-found') });
    expect(commentsOf(await client().readComments(account(), post(), ctx())).comments.some((c) => c.hidden)).toBe(false);
  });

  it('says the list is incomplete when a reply is blocked or lies below the depth returned', async () => {
    const blocked = f('get-post-thread');
    blocked.thread.replies.push({
      $type: 'app.bsky.feed.defs#blockedPost',
      uri: 'at://did:plc:blocker/app.bsky.feed.post/3lbqzzzz',
      blocked: true,
      author: { did: 'did:plc:blocker' },
    });
    api.on('GET', xrpc('app.bsky.feed.getPostThread'), { json: blocked });
    expect(commentsOf(await client().readComments(account(), post(), ctx())).complete).toBe(false);

    const truncated = f('get-post-thread');
    delete truncated.thread.replies[0].replies; // replyCount 1, no replies given
    api.on('GET', xrpc('app.bsky.feed.getPostThread'), { json: truncated });
    const read = commentsOf(await client().readComments(account(), post(), ctx()));
    expect(read.complete).toBe(false);
    expect(read.comments.map((c) => c.id)).toEqual([ALICE, SPAM]);
  });

  it('answers a deleted post with Bluesky’s reason, not an error', async () => {
    api.on('GET', xrpc('app.bsky.feed.getPostThread'), { status: 400, json: f('error-post-not-found') });
    const gone = `at://${DID}/app.bsky.feed.post/3lbqdeleted22`;
    expect(await client().readComments(account(), post(gone), ctx())).toEqual({ ok: false, reason: `Post not found: ${gone}` });
  });

  it('replies with root and parent strong refs under a record key from the idempotency key, then reads the reply as the account’s', async () => {
    api.on('GET', xrpc('app.bsky.feed.getPosts'), { json: f('get-posts-comment') });
    api.on('POST', xrpc('com.atproto.repo.createRecord'), (req) => ({
      json: { ...f('create-record'), uri: `at://${DID}/app.bsky.feed.post/${req.json().rkey}` },
    }));
    const key = '0b5c3f0e-5f2e-4d8e-9c4e-2b0f3c9a7d11';
    const posted = await client().reply!(account(), { postedId: POST, commentId: ALICE_AGAIN }, 'Thanks @alice.bsky.social!', ctx({ idempotencyKey: key }));

    const rkey = recordKeyFor(key);
    expect(posted).toEqual({ id: `at://${DID}/app.bsky.feed.post/${rkey}`, permalink: `https://bsky.app/profile/heraldcoffee.bsky.social/post/${rkey}` });
    expect(api.calls('GET', xrpc('app.bsky.feed.getPosts'))[0]!.query.get('uris')).toBe(ALICE_AGAIN);
    const body = api.calls('POST', xrpc('com.atproto.repo.createRecord'))[0]!.json();
    expect(body).toMatchObject({ repo: DID, collection: 'app.bsky.feed.post', rkey });
    expect(body.record).toMatchObject({
      $type: 'app.bsky.feed.post',
      text: 'Thanks @alice.bsky.social!',
      reply: { root: { uri: POST, cid: POST_CID }, parent: { uri: ALICE_AGAIN, cid: ALICE_AGAIN_CID } },
    });

    // The next read finds it under the comment it answers, as written by the account.
    const thread = f('get-post-thread');
    thread.thread.replies[0].replies[0].replies[0].replies.push({
      $type: 'app.bsky.feed.defs#threadViewPost',
      post: {
        uri: posted.id,
        cid: 'bafyreiaz5nq7jnv4ygyc2q4bxqoj3q2v6q7m5ztwv3jydbi7j4ix5hwfxu',
        author: { did: DID, handle: 'heraldcoffee.bsky.social', displayName: 'Herald Coffee' },
        record: body.record,
        replyCount: 0,
        indexedAt: '2026-11-27T12:00:01.000Z',
      },
      replies: [],
    });
    api.on('GET', xrpc('app.bsky.feed.getPostThread'), { json: thread });
    const reread = commentsOf(await client().readComments(account(), post(), ctx())).comments.find((c) => c.id === posted.id);
    expect(reread).toMatchObject({ parentId: ALICE_AGAIN, fromAccount: true, text: 'Thanks @alice.bsky.social!' });
  });

  it('answers the post itself with the post as root and parent; a retry meets the record already written', async () => {
    api.on('GET', xrpc('app.bsky.feed.getPosts'), { json: f('get-posts') });
    api.on('POST', xrpc('com.atproto.repo.createRecord'), { status: 500, json: f('error-record-exists') });
    api.on('GET', xrpc('com.atproto.repo.getRecord'), { json: f('get-record') });
    const key = 'reply-retried';
    const posted = await client().reply!(account(), { postedId: POST, commentId: null }, 'Open from 7am.', ctx({ idempotencyKey: key }));

    expect(posted.id).toBe(`at://${DID}/app.bsky.feed.post/${recordKeyFor(key)}`);
    const body = api.calls('POST', xrpc('com.atproto.repo.createRecord'))[0]!.json();
    expect(body.record.reply).toEqual({ root: { uri: POST, cid: POST_CID }, parent: { uri: POST, cid: POST_CID } });
    expect(api.calls('GET', xrpc('com.atproto.repo.getRecord'))[0]!.query.get('rkey')).toBe(recordKeyFor(key));
  });

  it('hides a reply in the post’s threadgate, keeping who may reply, and shows it again', async () => {
    api.on('GET', xrpc('com.atproto.repo.getRecord'), { json: f('get-record-threadgate') });
    api.on('POST', xrpc('com.atproto.repo.putRecord'), { json: f('put-record') });
    await client().hide!(account(), { postedId: POST, commentId: ALICE }, true, ctx());

    const get = api.calls('GET', xrpc('com.atproto.repo.getRecord'))[0]!;
    expect(Object.fromEntries(get.query)).toEqual({ repo: DID, collection: 'app.bsky.feed.threadgate', rkey: '3lbqn7yyp4k2a' });
    const put = api.calls('POST', xrpc('com.atproto.repo.putRecord'))[0]!.json();
    expect(put).toEqual({
      repo: DID,
      collection: 'app.bsky.feed.threadgate',
      rkey: '3lbqn7yyp4k2a',
      swapRecord: 'bafyreibq5u3fy3i2lk2w6yqz7dm3q5lk5s4t3jdg2c6fwvjm5r3f7c6o6m',
      record: {
        $type: 'app.bsky.feed.threadgate',
        allow: [{ $type: 'app.bsky.feed.threadgate#followingRule' }],
        createdAt: '2026-11-25T13:00:00.000Z',
        hiddenReplies: [SPAM, ALICE],
        post: POST,
      },
    });

    await client().hide!(account(), { postedId: POST, commentId: SPAM }, false, ctx());
    expect(api.calls('POST', xrpc('com.atproto.repo.putRecord'))[1]!.json().record.hiddenReplies).toEqual([]);
  });

  it('creates the threadgate when the post has none, with no rule on who may reply', async () => {
    api.on('GET', xrpc('com.atproto.repo.getRecord'), { status: 400, json: f('error-record-not-found') });
    api.on('POST', xrpc('com.atproto.repo.putRecord'), { json: f('put-record') });
    await client().hide!(account(), { postedId: POST, commentId: SPAM }, true, ctx());
    const put = api.calls('POST', xrpc('com.atproto.repo.putRecord'))[0]!.json();
    expect(put.swapRecord).toBeUndefined();
    expect(put.record).toEqual({ $type: 'app.bsky.feed.threadgate', post: POST, createdAt: expect.any(String), hiddenReplies: [SPAM] });
  });

  it('likes a reply with a like record naming its uri and cid', async () => {
    api.on('GET', xrpc('app.bsky.feed.getPosts'), { json: f('get-posts-comment') });
    api.on('POST', xrpc('com.atproto.repo.createRecord'), { json: f('create-record') });
    await client().like!(account(), { postedId: POST, commentId: ALICE_AGAIN }, ctx());
    const body = api.calls('POST', xrpc('com.atproto.repo.createRecord'))[0]!.json();
    expect(body).toMatchObject({
      repo: DID,
      collection: 'app.bsky.feed.like',
      rkey: recordKeyFor(`like:${ALICE_AGAIN}`),
      record: { $type: 'app.bsky.feed.like', subject: { uri: ALICE_AGAIN, cid: ALICE_AGAIN_CID }, createdAt: expect.any(String) },
    });
  });

  it('offers exactly the catalogue’s actions: no delete', () => {
    expect(client().delete).toBeUndefined();
  });

  it('waits out the rate limit the PDS states in RateLimit-Reset', async () => {
    const reset = () => String(Math.floor(Date.now() / 1000));
    api.on('GET', xrpc('app.bsky.feed.getPostThread'), () => ({ status: 429, headers: { 'ratelimit-reset': reset() }, json: f('error-rate-limit') }), {
      json: f('get-post-thread'),
    });
    expect(commentsOf(await client().readComments(account(), post(), ctx())).comments).toHaveLength(4);
    expect(api.calls('GET', xrpc('app.bsky.feed.getPostThread'))).toHaveLength(2);

    api.on('GET', xrpc('app.bsky.feed.getPostThread'), { status: 429, json: f('error-rate-limit') });
    const error = await client()
      .readComments(account(), post(), ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe('Rate Limit Exceeded');
  });

  it('fails the connection with TokenExpiredError when the session cannot be refreshed', async () => {
    const { connection, tokens } = storedConnection('bluesky', {
      externalId: DID,
      accountName: '@heraldcoffee.bsky.social',
      accessToken: 'old-access',
      refreshToken: 'spent',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', xrpc('app.bsky.feed.getPostThread'), { status: 400, json: f('error-expired-token') });
    api.on('POST', xrpc('com.atproto.server.refreshSession'), { status: 400, json: f('error-expired-token') });
    await expect(client().readComments({ ...connection, platformData: DATA }, post(), { tokens, now })).rejects.toBeInstanceOf(TokenExpiredError);
  });
});
