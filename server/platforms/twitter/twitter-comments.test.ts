// The X comments client against the documented search, lookup, hide, like and error answers,
// served by the local HTTPS stand-in through the guarded client.
//   https://docs.x.com/x-api/posts/search/introduction (recent search: conversation_id, next_token, 7 days)
//   https://docs.x.com/x-api/fundamentals/conversation-id (referenced_tweets replied_to)
//   https://docs.x.com/x-api/fundamentals/edit-posts (edit_history_tweet_ids, oldest first)
//   https://docs.x.com/x-api/posts/lookup/introduction (a deleted post: Not Found Error)
//   https://docs.x.com/x-api/posts/manage-tweets/introduction (reply.in_reply_to_tweet_id)
//   https://docs.x.com/x-api/posts/hide-replies/introduction (PUT /2/tweets/:id/hidden)
//   https://docs.x.com/x-api/posts/likes/introduction (POST /2/users/:id/likes)
//   https://docs.x.com/fundamentals/rate-limits (429, x-rate-limit-reset)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostComments } from '../comments';
import { createTwitterCommentsClient } from './twitter-comments';
import type { TwitterOptions } from './twitter-publisher';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const ME = '2244994945';
const POST = '1945880548472328192';
const ALICE = '1945890000000000001';
const OURS = '1945890000000000002';
const BOB = '1945890000000000003';
const EDITED_FIRST = '1945890000000000004';
const EDITED_LATEST = '1945890000000000005';
const CAROL = '1945890000000000006';
const SEARCH = '/2/tweets/search/recent';
const now = new Date('2026-11-27T12:00:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const post = (publishedAt = new Date('2026-11-25T09:00:00Z'), postedId = POST) => ({ postedId, publishedAt });
const client = (extra: Partial<TwitterOptions> = {}) => createTwitterCommentsClient({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', ...extra });
const account = () => liveConnection('twitter', { externalId: ME, accountName: '@heraldcoffee', accessToken: 'x-user-token' });
const conversation = () => {
  api.on('GET', `/2/tweets/${POST}`, { json: f('tweet-lookup') });
  api.on('GET', SEARCH, (req) => ({ json: f(req.query.get('next_token') ? 'search-conversation-page-2' : 'search-conversation-page-1') }));
};
const commentsOf = (r: PostComments) => {
  if (!r.ok) throw new Error(`no comments: ${r.reason}`);
  return r;
};

describe('X comments', () => {
  it('pages through the conversation and flattens it, each reply under the one it answers', async () => {
    conversation();
    const { comments, complete } = commentsOf(await client().readComments(account(), post(), ctx()));

    const [first, second, ...more] = api.calls('GET', SEARCH);
    expect(more).toHaveLength(0);
    expect(first!.headers.authorization).toBe('Bearer x-user-token');
    expect(first!.query.get('query')).toBe(`conversation_id:${POST}`);
    expect(first!.query.get('max_results')).toBe('100');
    expect(first!.query.get('expansions')).toBe('author_id,edit_history_tweet_ids');
    expect(first!.query.get('tweet.fields')).toContain('referenced_tweets');
    expect(first!.query.has('next_token')).toBe(false);
    expect(second!.query.get('next_token')).toBe('b26v89c19zqg8o3frr3ubmqyj4hgxlzu3wcyq0nfzigm5');

    expect(complete).toBe(true);
    // Oldest first; the post itself, found in its own conversation, is not a comment.
    expect(comments.map((c) => [c.id, c.parentId, c.fromAccount])).toEqual([
      [ALICE, null, false],
      [OURS, ALICE, true],
      [BOB, OURS, false],
      [EDITED_FIRST, null, true],
      [CAROL, EDITED_FIRST, false],
    ]);
    expect(comments[0]).toEqual({
      id: ALICE,
      parentId: null,
      authorId: '1111111111',
      authorName: 'Alice',
      authorHandle: '@alice_brews',
      authorAvatarUrl: 'https://pbs.twimg.com/profile_images/1111/alice_normal.jpg',
      text: '@heraldcoffee Is the Ethiopian back?',
      createdAt: new Date('2026-11-25T10:00:00.000Z'),
      editedAt: null,
      permalink: `https://x.com/alice_brews/status/${ALICE}`,
      fromAccount: false,
    });
  });

  it('keeps an edited reply under its first id, with the latest text, when it was edited and the latest permalink', async () => {
    conversation();
    const edited = commentsOf(await client().readComments(account(), post(), ctx())).comments.find((c) => c.id === EDITED_FIRST);
    expect(edited).toMatchObject({
      text: 'Also on the menu: a decaf Colombian (edited: and a Kenyan)',
      createdAt: new Date('2026-11-25T12:00:00.000Z'),
      editedAt: new Date('2026-11-25T12:05:00.000Z'),
      permalink: `https://x.com/heraldcoffee/status/${EDITED_LATEST}`,
    });
  });

  it('says a post older than the seven days of recent search has an incomplete list', async () => {
    conversation();
    const read = commentsOf(await client().readComments(account(), post(new Date('2026-11-19T09:00:00Z')), ctx()));
    expect(read.complete).toBe(false);
    expect(read.comments).toHaveLength(5);
  });

  it('answers a deleted post with X’s reason, without searching', async () => {
    const gone = '1945880548472300000';
    api.on('GET', `/2/tweets/${gone}`, { json: f('tweet-lookup-deleted') });
    expect(await client().readComments(account(), post(undefined, gone), ctx())).toEqual({
      ok: false,
      reason: `Could not find tweet with id: [${gone}].`,
    });
    expect(api.calls('GET', SEARCH)).toHaveLength(0);
  });

  it('sees a deleted reply gone from the next read', async () => {
    api.on('GET', `/2/tweets/${POST}`, { json: f('tweet-lookup') });
    const page = f('search-conversation-page-2');
    page.data = page.data.filter((p: { id: string }) => p.id !== ALICE);
    api.on('GET', SEARCH, { json: page });
    const { comments } = commentsOf(await client().readComments(account(), post(), ctx()));
    expect(comments.map((c) => [c.id, c.parentId])).toEqual([[OURS, ALICE]]);
  });

  it('replies to a comment, then reads the reply as the account’s', async () => {
    api.on('POST', '/2/tweets', { status: 201, json: f('reply-created') });
    const posted = await client().reply!(account(), { postedId: POST, commentId: CAROL }, '@carol_c The Colombian is decaf.', ctx());
    expect(posted).toEqual({ id: '1945899999999999999', permalink: 'https://x.com/heraldcoffee/status/1945899999999999999' });
    const [req] = api.calls('POST', '/2/tweets');
    expect(req!.headers.authorization).toBe('Bearer x-user-token');
    expect(req!.json()).toEqual({ text: '@carol_c The Colombian is decaf.', reply: { in_reply_to_tweet_id: CAROL } });

    api.on('GET', `/2/tweets/${POST}`, { json: f('tweet-lookup') });
    const page = f('search-conversation-page-1');
    page.data.unshift({
      ...f('reply-created').data,
      author_id: ME,
      conversation_id: POST,
      created_at: '2026-11-27T12:00:01.000Z',
      referenced_tweets: [{ type: 'replied_to', id: CAROL }],
    });
    delete page.meta.next_token;
    api.on('GET', SEARCH, { json: page });
    const reread = commentsOf(await client().readComments(account(), post(), ctx())).comments.find((c) => c.id === posted.id);
    expect(reread).toMatchObject({ parentId: CAROL, fromAccount: true, authorHandle: '@heraldcoffee' });
  });

  it('replies to the post itself', async () => {
    api.on('POST', '/2/tweets', { status: 201, json: f('reply-created') });
    await client().reply!(account(), { postedId: POST, commentId: null }, 'Thanks all!', ctx());
    expect(api.calls('POST', '/2/tweets')[0]!.json()).toEqual({ text: 'Thanks all!', reply: { in_reply_to_tweet_id: POST } });
  });

  it('hides and shows a reply', async () => {
    api.on('PUT', `/2/tweets/${BOB}/hidden`, (req) => ({ json: f(req.json().hidden ? 'reply-hidden' : 'reply-unhidden') }));
    await client().hide!(account(), { postedId: POST, commentId: BOB }, true, ctx());
    await client().hide!(account(), { postedId: POST, commentId: BOB }, false, ctx());
    expect(api.calls('PUT', `/2/tweets/${BOB}/hidden`).map((r) => r.json())).toEqual([{ hidden: true }, { hidden: false }]);
  });

  it('likes a reply as the account', async () => {
    api.on('POST', `/2/users/${ME}/likes`, { json: f('liked') });
    await client().like!(account(), { postedId: POST, commentId: ALICE }, ctx());
    const [req] = api.calls('POST', `/2/users/${ME}/likes`);
    expect(req!.json()).toEqual({ tweet_id: ALICE });
    expect(req!.headers.authorization).toBe('Bearer x-user-token');
  });

  it('offers exactly the catalogue’s actions: no delete', () => {
    expect(client().delete).toBeUndefined();
  });

  it('waits out the window x-rate-limit-reset states, and fails the connection on one too long to wait', async () => {
    api.on('GET', `/2/tweets/${POST}`, { json: f('tweet-lookup') });
    const reset = () => String(Math.floor(Date.now() / 1000));
    api.on('GET', SEARCH, () => ({ status: 429, headers: { 'x-rate-limit-reset': reset() }, json: f('error-rate-limit') }), {
      json: f('search-conversation-page-2'),
    });
    expect(commentsOf(await client().readComments(account(), post(), ctx())).comments).toHaveLength(2);
    expect(api.calls('GET', SEARCH)).toHaveLength(2);

    const later = String(Math.floor(Date.now() / 1000) + 900);
    api.on('GET', SEARCH, { status: 429, headers: { 'x-rate-limit-reset': later }, json: f('error-rate-limit') });
    const error = await client()
      .readComments(account(), post(), ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe('Too Many Requests');
    expect((error as PlatformError).opts).toEqual({ status: 429 });
  });

  it('raises TokenExpiredError for a refused token, after a refresh the token endpoint refuses', async () => {
    api.on('GET', `/2/tweets/${POST}`, { status: 401, json: f('error-unauthorized') });
    await expect(client().readComments(account(), post(), ctx())).rejects.toBeInstanceOf(TokenExpiredError);

    const { connection, tokens } = storedConnection('twitter', {
      externalId: ME,
      accountName: 'heraldcoffee',
      accessToken: 'x-old',
      refreshToken: 'x-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('POST', `/2/users/${ME}/likes`, { status: 401, json: f('error-unauthorized') });
    api.on('POST', '/2/oauth2/token', { status: 400, json: f('token-refresh-refused') });
    const error = await client({ clientId: 'x-client' }).like!(connection, { postedId: POST, commentId: ALICE }, { tokens, now }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(api.calls('POST', '/2/oauth2/token')[0]!.form().get('refresh_token')).toBe('x-refresh');
  });
});
