// The Facebook comments client against the documented Comment shapes, served by the local
// HTTPS stand-in through the guarded client.
//   https://developers.facebook.com/docs/graph-api/reference/object/comments (filter=stream, publishing)
//   https://developers.facebook.com/docs/graph-api/reference/comment (fields, is_hidden, deleting)
//   https://developers.facebook.com/docs/graph-api/reference/object/likes
//   https://developers.facebook.com/docs/graph-api/results (cursor paging)
import { describe, expect, it } from 'vitest';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { offeredCommentActions } from '../catalogue/comments';
import { implementedCommentActions, type CommentsContext, type PostComments } from '../comments';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createFacebookCommentsClient, type FacebookCommentsOptions } from './facebook-comments';

const f = (name: string) => fixture(import.meta.dirname, name);
const PAGE = '546349135390552';
const POST = '546349135390552_1116689038356556';
const MAYA = '1116689038356556_1116700215021999';
const SPAM = '1116689038356556_1116712093344781';
const REPLY = '1116689038356556_1116741902231187';
const COMMENTS = `/v25.0/${POST}/comments`;

const api = useFakePlatformApi();
const connection = liveConnection('facebook', { externalId: PAGE, accountName: 'Herald Coffee', accessToken: 'EAAB-page-token' });
const post = { postedId: POST, publishedAt: new Date('2026-11-25T09:00:00Z') };
const ctx = (): CommentsContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:00:00Z') });
const client = (extra: Partial<FacebookCommentsOptions> = {}) => createFacebookCommentsClient({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, ...extra });
const listOf = (result: PostComments) => {
  if (!result.ok) throw new Error(`no comments: ${result.reason}`);
  return result;
};

describe('Facebook comments', () => {
  it('offers exactly the actions of its catalogue entry', () => {
    expect(implementedCommentActions(client())).toEqual(offeredCommentActions(PLATFORM_CATALOGUE.facebook.comments));
  });

  it('reads every page of the post’s comment stream, replies flattened with their parent', async () => {
    api.on('GET', COMMENTS, { json: f('comments-page-1') }, { json: f('comments-page-2') });

    const result = listOf(await client().readComments(connection, post, ctx()));

    const [first, second] = api.calls('GET', COMMENTS);
    expect(first!.headers.authorization).toBe('Bearer EAAB-page-token');
    expect(Object.fromEntries(first!.query)).toEqual({
      fields: 'id,message,created_time,from{id,name},parent{id},permalink_url,is_hidden',
      filter: 'stream',
      order: 'chronological',
      limit: '50',
    });
    expect(second!.query.get('after')).toBe('MTExNjcwNTU1MTE4ODQxMgZDZD');

    expect(result.complete).toBe(true);
    expect(result.comments.map((c) => [c.id, c.parentId, c.fromAccount])).toEqual([
      [MAYA, null, false],
      ['1116689038356556_1116705551188412', MAYA, true],
      [SPAM, null, false],
      ['1116689038356556_1116730128876540', MAYA, false],
    ]);
    expect(result.comments[0]).toEqual({
      id: MAYA,
      parentId: null,
      authorId: '8123409876543210',
      authorName: 'Maya Lindqvist',
      authorHandle: null,
      text: 'Do you still do the Saturday cupping sessions?',
      createdAt: new Date('2026-11-25T10:05:12Z'),
      permalink: 'https://www.facebook.com/546349135390552/posts/1116689038356556?comment_id=1116700215021999',
      hidden: false,
      fromAccount: false,
    });
    // Someone who has not authorized the app: no author from Graph.
    expect(result.comments[2]).toMatchObject({ authorId: null, authorName: 'Facebook user', hidden: true });
  });

  it('stops at its page cap and says the list is not the whole conversation', async () => {
    api.on('GET', COMMENTS, { json: f('comments-page-1') }, { json: f('comments-page-2') });
    const result = listOf(await client({ maxPages: 1 }).readComments(connection, post, ctx()));
    expect(result.complete).toBe(false);
    expect(result.comments).toHaveLength(2);
    expect(api.calls('GET', COMMENTS)).toHaveLength(1);
  });

  it('answers a comment and the post, then knows its answer as the Page’s on the next read', async () => {
    api.on('POST', `/v25.0/${MAYA}/comments`, { json: f('reply-created') });
    api.on('POST', COMMENTS, { json: { id: '1116689038356556_1116741902239999' } });
    api.on('GET', `/v25.0/${REPLY}`, { json: f('reply-permalink') });

    const reply = await client().reply!(connection, { postedId: POST, commentId: MAYA }, 'Bring it along!', ctx());
    expect(reply).toEqual({ id: REPLY, permalink: f('reply-permalink').permalink_url });
    expect(Object.fromEntries(api.calls('POST', `/v25.0/${MAYA}/comments`)[0]!.form())).toEqual({ message: 'Bring it along!' });
    expect(api.calls('GET', `/v25.0/${REPLY}`)[0]!.query.get('fields')).toBe('permalink_url');

    // A permalink that cannot be read does not fail a posted reply.
    const onPost = await client().reply!(connection, { postedId: POST, commentId: null }, 'Thanks everyone', ctx());
    expect(onPost).toEqual({ id: '1116689038356556_1116741902239999', permalink: null });
    expect(Object.fromEntries(api.calls('POST', COMMENTS)[0]!.form())).toEqual({ message: 'Thanks everyone' });

    api.on('GET', COMMENTS, {
      json: {
        data: [
          {
            id: MAYA,
            message: 'Can I bring my own grinder?',
            created_time: '2026-11-26T08:02:44+0000',
            from: { id: '8123409876543210', name: 'Maya Lindqvist' },
          },
          { id: REPLY, message: 'Bring it along!', created_time: '2026-11-27T12:00:03+0000', from: { id: PAGE, name: 'Herald Coffee' }, parent: { id: MAYA } },
        ],
        paging: { cursors: { before: 'b', after: 'a' } },
      },
    });
    const next = listOf(await client().readComments(connection, post, ctx()));
    expect(next.comments.map((c) => [c.id, c.parentId, c.fromAccount])).toEqual([
      [MAYA, null, false],
      [REPLY, MAYA, true],
    ]);
  });

  it('hides a comment, shows it again, likes one and deletes one', async () => {
    api.on('POST', `/v25.0/${SPAM}`, { json: f('success') });
    api.on('DELETE', `/v25.0/${SPAM}`, { json: f('success') });
    api.on('POST', `/v25.0/${MAYA}/likes`, { json: f('success') });

    await client().hide!(connection, { postedId: POST, commentId: SPAM }, true, ctx());
    await client().hide!(connection, { postedId: POST, commentId: SPAM }, false, ctx());
    await client().like!(connection, { postedId: POST, commentId: MAYA }, ctx());
    await client().delete!(connection, { postedId: POST, commentId: SPAM }, ctx());

    expect(api.calls('POST', `/v25.0/${SPAM}`).map((r) => Object.fromEntries(r.form()))).toEqual([{ is_hidden: 'true' }, { is_hidden: 'false' }]);
    expect(api.calls('POST', `/v25.0/${MAYA}/likes`)).toHaveLength(1);
    expect(api.calls('DELETE', `/v25.0/${SPAM}`)[0]!.headers.authorization).toBe('Bearer EAAB-page-token');
  });

  it('refuses an action Graph did not confirm', async () => {
    api.on('POST', `/v25.0/${MAYA}/likes`, { json: { success: false } });
    const error = await failure(client().like!(connection, { postedId: POST, commentId: MAYA }, ctx()));
    expect(error.message).toBe('Facebook did not confirm liking the comment');
  });

  it('reads an edited comment’s new text, and a deleted comment is gone from a complete list', async () => {
    const page = f('comments-page-2');
    api.on('GET', COMMENTS, { json: page });
    listOf(await client().readComments(connection, post, ctx()));

    api.on('GET', COMMENTS, { json: { ...page, data: [{ ...page.data[1], message: 'Can I bring my own hand grinder?' }] } });
    const edited = listOf(await client().readComments(connection, post, ctx()));
    expect(edited.complete).toBe(true);
    expect(edited.comments.map((c) => [c.id, c.text])).toEqual([['1116689038356556_1116730128876540', 'Can I bring my own hand grinder?']]);
  });

  it('answers a post Facebook no longer has with Facebook’s words', async () => {
    api.on('GET', COMMENTS, { status: 400, json: f('error-post-deleted') });
    expect(await client().readComments(connection, post, ctx())).toEqual({ ok: false, reason: f('error-post-deleted').error.message });
  });

  it('waits out a 429 that states its Retry-After, and passes the Page’s throttle on with its words', async () => {
    api.on('GET', COMMENTS, { status: 429, headers: { 'retry-after': '0' }, json: f('error-page-throttled') }, { json: f('comments-page-2') });
    const result = listOf(await client().readComments(connection, post, ctx()));
    expect(api.calls('GET', COMMENTS)).toHaveLength(2);
    expect(result.comments).toHaveLength(2);

    api.on('GET', COMMENTS, { status: 400, json: f('error-page-throttled') });
    const error = await failure(client().readComments(connection, post, ctx()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('(#32) Page request limit reached');
  });

  it('fails the connection with TokenExpiredError when the token was revoked', async () => {
    api.on('POST', `/v25.0/${MAYA}/comments`, { status: 400, json: f('error-token-revoked') });
    const error = await failure(client().reply!(connection, { postedId: POST, commentId: MAYA }, 'x', ctx()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-token-revoked').error.message);
  });
});
