// The Reddit comments client against the documented listings, api_type=json answers and errors,
// served by the local HTTPS stand-in through the guarded client.
//   https://www.reddit.com/dev/api/#GET_comments_{article} (post and comment listings; comment=)
//   https://www.reddit.com/dev/api/#GET_api_morechildren (link_id, children; things)
//   https://github.com/reddit-archive/reddit/wiki/JSON (t1 and more; edited; replies)
//   https://www.reddit.com/dev/api/#POST_api_comment, …#POST_api_remove, …#POST_api_approve, …#POST_api_vote
//   https://github.com/reddit-archive/reddit/wiki/OAuth2 (refresh; 401 for a refused token)
//   https://github.com/reddit-archive/reddit/wiki/API (X-Ratelimit-Reset)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostComments } from '../comments';
import { createRedditCommentsClient } from './reddit-comments';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const POST = 't3_1h2x9zz';
const ARTICLE = '/comments/1h2x9zz';
const now = new Date('2026-11-27T12:00:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const post = (postedId = POST) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') });
const app = () => ({ clientId: 'p-jcoLKBynTLew', clientSecret: 'reddit-secret', tokenUrl: `${api.baseUrl}/api/v1/access_token` });
const client = (extra = {}) => createRedditCommentsClient({ fetch: api.fetch, baseUrl: api.baseUrl, ...extra });
const account = () =>
  liveConnection('reddit', { externalId: 't2_8xwlg', accountName: 'u/heraldcoffee', accessToken: 'reddit-token', platformData: { username: 'heraldcoffee' } });
/** The post's page, the page a thread continues on, and the comments a `more` stands for. */
const thread = (article = f('comments-article')) => {
  api.on('GET', ARTICLE, (req) => ({ json: req.query.get('comment') ? f('comments-continued') : article }));
  api.on('GET', '/api/morechildren', { json: f('morechildren') });
};
const commentsOf = (r: PostComments) => {
  if (!r.ok) throw new Error(`no comments: ${r.reason}`);
  return r;
};

describe('Reddit comments', () => {
  it('flattens the tree, fetches what `more` left out and where a thread continues; a deleted comment is left out', async () => {
    thread();
    const { comments, complete } = commentsOf(await client().readComments(account(), post(), ctx()));

    const [page, continued, ...others] = api.calls('GET', ARTICLE);
    expect(others).toHaveLength(0);
    expect(page!.headers.authorization).toBe('bearer reddit-token');
    expect(page!.headers['user-agent']).toBeTruthy();
    expect(page!.query.get('raw_json')).toBe('1');
    expect(continued!.query.get('comment')).toBe('m3bob');
    const [more, ...moreOthers] = api.calls('GET', '/api/morechildren');
    expect(moreOthers).toHaveLength(0);
    expect(Object.fromEntries(more!.query)).toMatchObject({ api_type: 'json', link_id: POST, children: 'm5carl,m6dana,m9gina' });

    expect(complete).toBe(true);
    expect(comments.map((c) => [c.id, c.parentId, c.fromAccount])).toEqual([
      ['t1_m1alice', null, false],
      ['t1_m2ours', 't1_m1alice', true],
      ['t1_m3bob', 't1_m2ours', false],
      ['t1_m7erin', 't1_m4gone', false], // its parent was deleted: gone from the list, kept as its parent
      ['t1_m8spam', null, false],
      ['t1_m5carl', 't1_m2ours', false],
      ['t1_m6dana', 't1_m5carl', false],
      ['t1_m9gina', null, false],
      ['t1_mahal', 't1_m3bob', false],
    ]);
    expect(comments[0]).toEqual({
      id: 't1_m1alice',
      parentId: null,
      authorId: 't2_a11ce',
      authorName: 'alice_brews',
      authorHandle: 'u/alice_brews',
      text: 'Is the Ethiopian back?',
      createdAt: new Date('2026-11-25T10:00:00Z'),
      editedAt: null,
      permalink: 'https://www.reddit.com/r/Coffee/comments/1h2x9zz/our_winter_beans_are_in/m1alice/',
      hidden: false,
      fromAccount: false,
    });
    expect(comments.find((c) => c.id === 't1_m8spam')!.hidden).toBe(true);
  });

  it('says when a comment was edited', async () => {
    thread();
    const bob = commentsOf(await client().readComments(account(), post(), ctx())).comments.find((c) => c.id === 't1_m3bob');
    expect(bob).toMatchObject({ text: 'Save me a bag of the Kenyan.', editedAt: new Date('2026-11-25T11:04:10Z') });
  });

  it('stops fetching left-out comments after its budget and says the list is incomplete', async () => {
    const article = f('comments-article');
    const ids = Array.from({ length: 2600 }, (_, i) => `z${i.toString(36)}`);
    article[1].data.children.push({ kind: 'more', data: { count: ids.length, name: `t1_${ids[0]}`, id: ids[0], parent_id: POST, depth: 0, children: ids } });
    thread(article);
    api.on('GET', '/api/morechildren', { json: { json: { errors: [], data: { things: [] } } } });
    const read = commentsOf(await client().readComments(account(), post(), ctx()));
    expect(read.complete).toBe(false);
    expect(api.calls('GET', '/api/morechildren').length + api.calls('GET', ARTICLE).length - 1).toBe(25);
  });

  it('answers a deleted post, a post Reddit no longer has and an id-less submission with a reason', async () => {
    api.on('GET', ARTICLE, { json: f('comments-article-deleted') });
    expect(await client().readComments(account(), post(), ctx())).toEqual({
      ok: false,
      reason: 'Reddit reports this post removed (removed_by_category: deleted)',
    });
    api.on('GET', '/comments/1h2gone', { status: 404, json: f('error-not-found') });
    expect(await client().readComments(account(), post('t3_1h2gone'), ctx())).toEqual({ ok: false, reason: 'Not Found' });
    expect(await client().readComments(account(), post('Coffee:Our winter beans'), ctx())).toEqual({
      ok: false,
      reason: expect.stringContaining('no post id'),
    });
  });

  it('replies to a comment, then reads the reply as the account’s', async () => {
    api.on('POST', '/api/comment', { json: f('comment-posted') });
    const posted = await client().reply!(account(), { postedId: POST, commentId: 't1_m3bob' }, 'Saving one now.', ctx());
    expect(posted).toEqual({ id: 't1_mbreply', permalink: 'https://www.reddit.com/r/Coffee/comments/1h2x9zz/our_winter_beans_are_in/mbreply/' });
    const [req] = api.calls('POST', '/api/comment');
    expect(req!.headers.authorization).toBe('bearer reddit-token');
    expect(Object.fromEntries(req!.form())).toEqual({ api_type: 'json', thing_id: 't1_m3bob', text: 'Saving one now.' });

    const article = f('comments-article');
    article[1].data.children.push(f('comment-posted').json.data.things[0]);
    thread(article);
    const reread = commentsOf(await client().readComments(account(), post(), ctx())).comments.find((c) => c.id === posted.id);
    expect(reread).toMatchObject({ parentId: 't1_m3bob', fromAccount: true, authorHandle: 'u/heraldcoffee' });
  });

  it('replies to the post itself, and passes on Reddit’s refusal verbatim', async () => {
    api.on('POST', '/api/comment', { json: f('comment-posted') });
    await client().reply!(account(), { postedId: POST, commentId: null }, 'Thanks, all!', ctx());
    expect(api.calls('POST', '/api/comment')[0]!.form().get('thing_id')).toBe(POST);

    api.on('POST', '/api/comment', { json: f('error-deleted-comment') });
    const error = await client().reply!(account(), { postedId: POST, commentId: 't1_m4gone' }, 'Hello?', ctx()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe('DELETED_COMMENT: that comment has been deleted');
  });

  it('removes a comment to hide it and approves it to show it again', async () => {
    api.on('POST', '/api/remove', { json: {} });
    api.on('POST', '/api/approve', { json: {} });
    await client().hide!(account(), { postedId: POST, commentId: 't1_m8spam' }, true, ctx());
    await client().hide!(account(), { postedId: POST, commentId: 't1_m8spam' }, false, ctx());
    expect(Object.fromEntries(api.calls('POST', '/api/remove')[0]!.form())).toEqual({ id: 't1_m8spam', spam: 'false' });
    expect(Object.fromEntries(api.calls('POST', '/api/approve')[0]!.form())).toEqual({ id: 't1_m8spam' });
  });

  it('upvotes a comment to like it', async () => {
    api.on('POST', '/api/vote', { json: {} });
    await client().like!(account(), { postedId: POST, commentId: 't1_m1alice' }, ctx());
    expect(Object.fromEntries(api.calls('POST', '/api/vote')[0]!.form())).toEqual({ id: 't1_m1alice', dir: '1' });
  });

  it('offers exactly the catalogue’s actions: no delete', () => {
    expect(client().delete).toBeUndefined();
  });

  it('waits out the reset Reddit states, and fails the connection on a 429 it cannot wait out', async () => {
    thread();
    api.on('GET', ARTICLE, { status: 429, headers: { 'x-ratelimit-reset': '0' }, json: f('error-rate-limited') }, { json: f('comments-article-deleted') });
    expect(await client().readComments(account(), post(), ctx())).toMatchObject({ ok: false });
    expect(api.calls('GET', ARTICLE)).toHaveLength(2);

    api.on('GET', ARTICLE, { status: 429, headers: { 'x-ratelimit-reset': '600' }, json: f('error-rate-limited') });
    const error = await client()
      .readComments(account(), post(), ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe('Too Many Requests');
  });

  it('raises TokenExpiredError when Reddit refuses the token and its refresh', async () => {
    const { connection, tokens } = storedConnection('reddit', {
      externalId: 't2_8xwlg',
      accountName: 'u/heraldcoffee',
      accessToken: 'reddit-old',
      refreshToken: 'reddit-refresh',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', ARTICLE, { status: 401, json: f('error-unauthorized') });
    api.on('POST', '/api/v1/access_token', { status: 400, json: { error: 'invalid_grant' } });
    await expect(client(app()).readComments(connection, post(), { tokens, now })).rejects.toBeInstanceOf(TokenExpiredError);
    expect(api.calls('POST', '/api/v1/access_token')[0]!.form().get('refresh_token')).toBe('reddit-refresh');
  });
});
