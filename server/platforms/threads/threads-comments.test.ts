// The Threads comments client against the documented reply shapes, served by the local HTTPS
// stand-in through the guarded client.
//   https://developers.facebook.com/documentation/threads/reference/reply-management (conversation, fields, cursors)
//   https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/create-replies
//   https://developers.facebook.com/documentation/threads/reply-management (manage_reply)
import { describe, expect, it } from 'vitest';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { offeredCommentActions } from '../catalogue/comments';
import { implementedCommentActions, type CommentsContext, type PostComments } from '../comments';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createThreadsCommentsClient, type ThreadsCommentsOptions } from './threads-comments';

const f = (name: string) => fixture(import.meta.dirname, name);
const USER = '26308861195437268';
const MEDIA = '18064532145098765';
const MAYA = '18091355420187651';
const SPAM = '18102234556671203';
const CONTAINER = '18029941370554312';
const REPLY = '18066120847733915';
const CONVERSATION = `/v1.0/${MEDIA}/conversation`;

const api = useFakePlatformApi();
const connection = liveConnection('threads', { externalId: USER, accountName: '@heraldcoffee', accessToken: 'THAAJ-token' });
const post = { postedId: MEDIA, publishedAt: new Date('2026-11-25T09:00:00Z') };
const ctx = (): CommentsContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:00:00Z') });
const client = (extra: Partial<ThreadsCommentsOptions> = {}) =>
  createThreadsCommentsClient({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v1.0`, pollIntervalMs: 0, pollAttempts: 3, ...extra });
const listOf = (result: PostComments) => {
  if (!result.ok) throw new Error(`no comments: ${result.reason}`);
  return result;
};

describe('Threads comments', () => {
  it('offers exactly the actions of its catalogue entry', () => {
    expect(implementedCommentActions(client())).toEqual(offeredCommentActions(PLATFORM_CATALOGUE.threads.comments));
  });

  it('reads the whole conversation page after page, nested replies with the reply they answer', async () => {
    api.on('GET', CONVERSATION, { json: f('conversation-page-1') }, { json: f('conversation-page-2') }, { json: f('conversation-end') });

    const result = listOf(await client().readComments(connection, post, ctx()));

    const calls = api.calls('GET', CONVERSATION);
    expect(calls).toHaveLength(3);
    expect(calls[0]!.headers.authorization).toBe('Bearer THAAJ-token');
    expect(Object.fromEntries(calls[0]!.query)).toEqual({
      fields: 'id,text,username,permalink,timestamp,replied_to,is_reply_owned_by_me,hide_status,profile_picture_url',
      reverse: 'false',
    });
    // Threads shows no `next` link: its `after` cursor is followed until a page comes back empty.
    expect(calls.slice(1).map((c) => c.query.get('after'))).toEqual(['QVFIUkJfQWZ0ZXJfUGFnZV8xZAZDZD', 'QVFIUkJfQWZ0ZXJfUGFnZV8yZAZDZD']);

    expect(result.complete).toBe(true);
    expect(result.comments.map((c) => [c.id, c.parentId, c.fromAccount, c.hidden])).toEqual([
      [MAYA, null, false, false],
      ['18047712908365502', MAYA, true, false],
      [SPAM, null, false, true],
      ['18033457712098864', MAYA, false, false],
    ]);
    expect(result.comments[0]).toEqual({
      id: MAYA,
      parentId: null,
      authorId: null,
      authorName: 'maya.brews',
      authorHandle: '@maya.brews',
      authorAvatarUrl: 'https://scontent.cdninstagram.com/v/t51.2885-19/maya_brews.jpg',
      text: 'Is the oat flat white back on the menu?',
      createdAt: new Date('2026-11-25T10:14:22Z'),
      permalink: 'https://www.threads.com/@maya.brews/post/DC2aQw1xYz9',
      hidden: false,
      fromAccount: false,
    });
    // A private profile's reply comes without username or permalink.
    expect(result.comments[3]).toMatchObject({ authorName: 'Threads user', authorHandle: null, permalink: null });
  });

  it('stops at its page cap and says the list is not the whole conversation', async () => {
    api.on('GET', CONVERSATION, { json: f('conversation-page-1') }, { json: f('conversation-page-2') }, { json: f('conversation-end') });
    const result = listOf(await client({ maxPages: 2 }).readComments(connection, post, ctx()));
    expect(result.complete).toBe(false);
    expect(result.comments).toHaveLength(4);
    expect(api.calls('GET', CONVERSATION)).toHaveLength(2);
  });

  it('publishes a reply to a reply through a container, then knows it as its own on the next read', async () => {
    api.on('POST', `/v1.0/${USER}/threads`, { json: f('reply-container-created') });
    api.on('GET', `/v1.0/${CONTAINER}`, { json: { status: 'IN_PROGRESS', id: CONTAINER } }, { json: { status: 'FINISHED', id: CONTAINER } });
    api.on('POST', `/v1.0/${USER}/threads_publish`, { json: f('reply-published') });
    api.on('GET', `/v1.0/${REPLY}`, { json: f('reply-permalink') });

    const reply = await client().reply!(connection, { postedId: MEDIA, commentId: MAYA }, 'Until spring, at least 🌱', ctx());

    expect(reply).toEqual({ id: REPLY, permalink: 'https://www.threads.com/@heraldcoffee/post/DC3cSy3zAb1' });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1.0/${USER}/threads`,
      `GET /v1.0/${CONTAINER}`,
      `GET /v1.0/${CONTAINER}`,
      `POST /v1.0/${USER}/threads_publish`,
      `GET /v1.0/${REPLY}`,
    ]);
    expect(Object.fromEntries(api.calls('POST', `/v1.0/${USER}/threads`)[0]!.form())).toEqual({
      media_type: 'TEXT',
      text: 'Until spring, at least 🌱',
      reply_to_id: MAYA,
    });
    expect(Object.fromEntries(api.calls('POST', `/v1.0/${USER}/threads_publish`)[0]!.form())).toEqual({ creation_id: CONTAINER });

    api.on('GET', CONVERSATION, {
      json: {
        data: [{ id: REPLY, text: 'Until spring, at least 🌱', username: 'heraldcoffee', timestamp: '2026-11-27T12:00:31+0000', replied_to: { id: MAYA } }],
      },
    });
    const next = listOf(await client().readComments(connection, post, ctx()));
    expect(next.comments.map((c) => [c.id, c.parentId, c.fromAccount])).toEqual([[REPLY, MAYA, true]]);
  });

  it('answers the thread itself with reply_to_id set to the post', async () => {
    api.on('POST', `/v1.0/${USER}/threads`, { json: f('reply-container-created') });
    api.on('GET', `/v1.0/${CONTAINER}`, { json: { status: 'FINISHED', id: CONTAINER } });
    api.on('POST', `/v1.0/${USER}/threads_publish`, { json: f('reply-published') });
    api.on('GET', `/v1.0/${REPLY}`, { status: 500, json: { error: { message: 'An unknown error has occurred.', code: 1 } } });

    const reply = await client().reply!(connection, { postedId: MEDIA, commentId: null }, 'Thanks all!', ctx());
    expect(reply).toEqual({ id: REPLY, permalink: null });
    expect(api.calls('POST', `/v1.0/${USER}/threads`)[0]!.form().get('reply_to_id')).toBe(MEDIA);
  });

  it('hides a reply and shows it again', async () => {
    api.on('POST', `/v1.0/${SPAM}/manage_reply`, { json: f('success') });
    await client().hide!(connection, { postedId: MEDIA, commentId: SPAM }, true, ctx());
    await client().hide!(connection, { postedId: MEDIA, commentId: SPAM }, false, ctx());
    expect(api.calls('POST', `/v1.0/${SPAM}/manage_reply`).map((r) => Object.fromEntries(r.form()))).toEqual([{ hide: 'true' }, { hide: 'false' }]);
  });

  it('reads an edited reply’s new text, and a deleted one is gone from a complete list', async () => {
    const page = f('conversation-page-1');
    api.on('GET', CONVERSATION, { json: { data: [{ ...page.data[0], text: 'Is the oat flat white back? And the cardamom bun?' }] } });
    const edited = listOf(await client().readComments(connection, post, ctx()));
    expect(edited.complete).toBe(true);
    expect(edited.comments.map((c) => [c.id, c.text])).toEqual([[MAYA, 'Is the oat flat white back? And the cardamom bun?']]);

    api.on('GET', CONVERSATION, { json: f('conversation-end') });
    expect(await client().readComments(connection, post, ctx())).toEqual({ ok: true, comments: [], complete: true });
  });

  it('answers a thread Threads no longer has with Threads’ words', async () => {
    api.on('GET', CONVERSATION, { status: 400, json: f('error-post-deleted') });
    expect(await client().readComments(connection, post, ctx())).toEqual({ ok: false, reason: f('error-post-deleted').error.message });
  });

  it('waits out a 429 that states its Retry-After, and passes Meta’s throttle on with its words', async () => {
    api.on('GET', CONVERSATION, { status: 429, headers: { 'retry-after': '0' }, json: f('error-rate-limit') }, { json: f('conversation-end') });
    listOf(await client().readComments(connection, post, ctx()));
    expect(api.calls('GET', CONVERSATION)).toHaveLength(2);

    api.on('GET', CONVERSATION, { status: 403, json: f('error-rate-limit') });
    const error = await failure(client().readComments(connection, post, ctx()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Application request limit reached');
  });

  it('fails the connection with TokenExpiredError when the token was revoked and cannot be extended', async () => {
    api.on('GET', CONVERSATION, { status: 400, json: f('error-token-revoked') });
    api.on('GET', '/refresh_access_token', { status: 400, json: f('error-token-revoked') });
    const error = await failure(client().readComments(connection, post, ctx()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-token-revoked').error.message);
    expect(api.calls('GET', '/refresh_access_token')).toHaveLength(1);
  });
});
