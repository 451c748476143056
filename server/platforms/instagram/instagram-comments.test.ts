// The Instagram comments client against the documented IG Comment shapes, served by the local
// HTTPS stand-in through the guarded client.
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment
//   https://developers.facebook.com/docs/graph-api/results (cursor paging)
import { describe, expect, it } from 'vitest';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { offeredCommentActions } from '../catalogue/comments';
import { implementedCommentActions, type CommentsContext, type PostComments } from '../comments';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createInstagramCommentsClient, type InstagramCommentsOptions } from './instagram-comments';

const f = (name: string) => fixture(import.meta.dirname, name);
const IG_USER = '17841400008460056';
const MEDIA = '17920238422030506';
const MAYA = '17873440459141021';
const SPAM = '17870913679156914';
const COMMENTS = `/v25.0/${MEDIA}/comments`;
const REPLIES = `/v25.0/${MAYA}/replies`;

const api = useFakePlatformApi();
const connection = liveConnection('instagram', { externalId: IG_USER, accountName: 'herald.coffee', accessToken: 'EAAG-instagram-token' });
const post = { postedId: MEDIA, publishedAt: new Date('2026-11-25T09:00:00Z') };
const ctx = (): CommentsContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:00:00Z') });
const client = (extra: Partial<InstagramCommentsOptions> = {}) =>
  createInstagramCommentsClient({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, ...extra });
const listOf = (result: PostComments) => {
  if (!result.ok) throw new Error(`no comments: ${result.reason}`);
  return result;
};

describe('Instagram comments', () => {
  it('offers exactly the actions of its catalogue entry', () => {
    expect(implementedCommentActions(client())).toEqual(offeredCommentActions(PLATFORM_CATALOGUE.instagram.comments));
  });

  it('reads every page of comments and every page of their replies, flattened under their parent', async () => {
    api.on('GET', COMMENTS, { json: f('comments-page-1') }, { json: f('comments-page-2') });
    api.on('GET', REPLIES, { json: f('comment-replies-page-2') });

    const result = listOf(await client().readComments(connection, post, ctx()));

    const [first, second] = api.calls('GET', COMMENTS);
    expect(first!.headers.authorization).toBe('Bearer EAAG-instagram-token');
    expect(first!.query.get('fields')).toBe(
      'id,text,timestamp,username,from{id,username},hidden,parent_id,replies.limit(50){id,text,timestamp,username,from{id,username},hidden,parent_id}',
    );
    expect(first!.query.get('limit')).toBe('50');
    expect(first!.query.has('after')).toBe(false);
    expect(second!.query.get('after')).toBe('QVFIUmNvbW1lbnRBZnRlcjFkZDZD');
    const [replies] = api.calls('GET', REPLIES);
    expect(replies!.query.get('after')).toBe('QVFIUnJlcGx5QWZ0ZXIxZAZDZD');
    expect(api.requests.every((r) => !r.query.has('access_token'))).toBe(true);

    expect(result.complete).toBe(true);
    expect(result.comments.map((c) => [c.id, c.parentId])).toEqual([
      [MAYA, null],
      ['17890455560051445', MAYA],
      ['17891877302214409', MAYA],
      [SPAM, null],
      ['17902288314075533', null],
    ]);
    expect(result.comments[0]).toEqual({
      id: MAYA,
      parentId: null,
      authorId: '6820197654013877',
      authorName: 'maya.brews',
      authorHandle: '@maya.brews',
      text: 'Is the Ethiopia Guji back for good? Asking for my whole office 😍',
      createdAt: new Date('2026-11-25T10:12:40Z'),
      permalink: null,
      hidden: false,
      fromAccount: false,
    });
    expect(result.comments.find((c) => c.id === SPAM)!.hidden).toBe(true);
    // The account's own reply, known by its username.
    expect(result.comments.filter((c) => c.fromAccount).map((c) => c.id)).toEqual(['17891877302214409']);
  });

  it('stops at its page cap and says the list is not the whole conversation', async () => {
    api.on('GET', COMMENTS, { json: f('comments-page-1') }, { json: f('comments-page-2') });
    api.on('GET', REPLIES, { json: f('comment-replies-page-2') });

    const result = listOf(await client({ maxPages: 2 }).readComments(connection, post, ctx()));

    expect(result.complete).toBe(false);
    expect(api.calls('GET', COMMENTS)).toHaveLength(2);
    expect(api.calls('GET', REPLIES)).toHaveLength(0);
    expect(result.comments.map((c) => c.id)).toEqual([MAYA, '17890455560051445', SPAM, '17902288314075533']);
  });

  it('answers a comment and the media itself, then knows its answer as its own on the next read', async () => {
    api.on('POST', `/v25.0/${MAYA}/replies`, { json: f('reply-created') });
    api.on('POST', COMMENTS, { json: f('comment-created') });

    const reply = await client().reply!(connection, { postedId: MEDIA, commentId: MAYA }, 'Until the lot runs out ☕', ctx());
    const onPost = await client().reply!(connection, { postedId: MEDIA, commentId: null }, 'Thanks all!', ctx());

    expect(reply).toEqual({ id: '17873440459141099', permalink: null });
    expect(onPost).toEqual({ id: '17871166632062981', permalink: null });
    const [sent] = api.calls('POST', `/v25.0/${MAYA}/replies`);
    expect(sent!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(sent!.form())).toEqual({ message: 'Until the lot runs out ☕' });
    expect(Object.fromEntries(api.calls('POST', COMMENTS)[0]!.form())).toEqual({ message: 'Thanks all!' });

    api.on('GET', COMMENTS, {
      json: {
        data: [
          {
            id: MAYA,
            text: 'Is the Ethiopia Guji back for good?',
            timestamp: '2026-11-25T10:12:40+0000',
            username: 'maya.brews',
            from: { id: '6820197654013877', username: 'maya.brews' },
            hidden: false,
            replies: {
              data: [
                {
                  id: reply.id,
                  text: 'Until the lot runs out ☕',
                  timestamp: '2026-11-27T12:00:05+0000',
                  username: 'herald.coffee',
                  from: { id: '7700412365508821', username: 'herald.coffee' },
                  hidden: false,
                  parent_id: MAYA,
                },
              ],
            },
          },
        ],
        paging: { cursors: { before: 'b', after: 'a' } },
      },
    });
    const next = listOf(await client().readComments(connection, post, ctx()));
    expect(next.comments.map((c) => [c.id, c.parentId, c.fromAccount])).toEqual([
      [MAYA, null, false],
      [reply.id, MAYA, true],
    ]);
  });

  it('hides a comment, shows it again and deletes it', async () => {
    api.on('POST', `/v25.0/${SPAM}`, { json: f('success') });
    api.on('DELETE', `/v25.0/${SPAM}`, { json: f('success') });

    await client().hide!(connection, { postedId: MEDIA, commentId: SPAM }, true, ctx());
    await client().hide!(connection, { postedId: MEDIA, commentId: SPAM }, false, ctx());
    await client().delete!(connection, { postedId: MEDIA, commentId: SPAM }, ctx());

    expect(api.calls('POST', `/v25.0/${SPAM}`).map((r) => Object.fromEntries(r.form()))).toEqual([{ hide: 'true' }, { hide: 'false' }]);
    const [deleted] = api.calls('DELETE', `/v25.0/${SPAM}`);
    expect(deleted!.headers.authorization).toBe('Bearer EAAG-instagram-token');
  });

  it('reads an edited comment’s new text, and a deleted comment is gone from a complete list', async () => {
    const page = f('comments-page-2');
    api.on('GET', COMMENTS, { json: page });
    const before = listOf(await client().readComments(connection, post, ctx()));
    expect(before.comments.map((c) => c.text)).toEqual(["Ordered two bags, can't wait"]);

    api.on('GET', COMMENTS, { json: { ...page, data: [{ ...page.data[0], text: 'Ordered three bags, can’t wait' }] } });
    const edited = listOf(await client().readComments(connection, post, ctx()));
    expect(edited.comments.map((c) => [c.id, c.text])).toEqual([['17902288314075533', 'Ordered three bags, can’t wait']]);

    api.on('GET', COMMENTS, { json: { ...page, data: [] } });
    expect(await client().readComments(connection, post, ctx())).toEqual({ ok: true, comments: [], complete: true });
  });

  it('answers a media Instagram no longer has with Instagram’s words, and fails an action on a deleted comment', async () => {
    api.on('GET', COMMENTS, { status: 400, json: f('error-media-deleted') });
    expect(await client().readComments(connection, post, ctx())).toEqual({ ok: false, reason: f('error-media-deleted').error.message });

    api.on('DELETE', `/v25.0/${SPAM}`, { status: 400, json: f('error-comment-deleted') });
    const error = await failure(client().delete!(connection, { postedId: MEDIA, commentId: SPAM }, ctx()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-comment-deleted').error.message);
  });

  it('waits out a 429 that states its Retry-After, and passes Meta’s throttle on with its words', async () => {
    api.on('GET', COMMENTS, { status: 429, headers: { 'retry-after': '0' }, json: f('error-rate-limit') }, { json: f('comments-page-2') });
    const result = listOf(await client().readComments(connection, post, ctx()));
    expect(api.calls('GET', COMMENTS)).toHaveLength(2);
    expect(result.comments).toHaveLength(1);

    api.on('GET', COMMENTS, { status: 403, json: f('error-rate-limit') });
    const error = await failure(client().readComments(connection, post, ctx()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Application request limit reached');
    expect(error.opts).toEqual({ status: 403 });
  });

  it('fails the connection with TokenExpiredError when the token was revoked', async () => {
    api.on('GET', COMMENTS, { status: 400, json: f('error-token-revoked') });
    const error = await failure(client().readComments(connection, post, ctx()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-token-revoked').error.message);
  });
});
