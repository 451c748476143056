// The YouTube comments client against the Data API's documented answers, served by the local
// HTTPS stand-in through the guarded client.
//   https://developers.google.com/youtube/v3/docs/commentThreads/list (videoId, pageToken,
//     moderationStatus; commentsDisabled, videoNotFound)
//   https://developers.google.com/youtube/v3/docs/comments/list (parentId: every reply; id: one comment)
//   https://developers.google.com/youtube/v3/docs/comments (snippet: authorChannelId, parentId,
//     moderationStatus, publishedAt, updatedAt)
//   https://developers.google.com/youtube/v3/docs/comments/insert, …/commentThreads/insert
//   https://developers.google.com/youtube/v3/docs/comments/setModerationStatus
//   https://developers.google.com/youtube/v3/docs/errors (insufficientPermissions, rateLimitExceeded, authError)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostComments } from '../comments';
import { createYouTubeCommentsClient } from './youtube-comments';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const CHANNEL = 'UC_x5XG1OV2P6uZZ5FSM9Ttw';
const VIDEO = 'dQw4w9WgXcQ';
const ALICE = 'UgzDE2tasfmrYLyNkGt4AaABAg';
const OURS = `${ALICE}.9xQ1ours0001`;
const BOB = `${ALICE}.9xQ2bob00002`;
const ERIN = `${ALICE}.9xQ3erin0003`;
const CAROL = 'UgyCarolThreadXyz12AaABAg';
const DAVE = 'UgxDaveThreadAbc34AaABAg';
const SPAM = 'UgwSpamThreadQrs56AaABAg';
const THREADS = '/youtube/v3/commentThreads';
const COMMENTS = '/youtube/v3/comments';
const now = new Date('2026-11-27T12:00:00Z');
const ctx = () => ({ tokens: new MemoryTokenStore(), now });
const video = (postedId = VIDEO) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') });
const client = (extra: Parameters<typeof createYouTubeCommentsClient>[0] = {}) =>
  createYouTubeCommentsClient({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra });
const channel = () => liveConnection('youtube', { externalId: CHANNEL, accountName: '@heraldcoffee', accessToken: 'ya29.tok' });
/** Threads by moderation pass and page; replies of Alice's thread by comments.list. */
const threads = () => {
  api.on('GET', THREADS, (req) => {
    const status = req.query.get('moderationStatus');
    if (status === 'heldForReview') return { json: f('comment-threads-held') };
    if (status === 'likelySpam') return { json: f('comment-threads-empty') };
    return { json: f(req.query.get('pageToken') ? 'comment-threads-page-2' : 'comment-threads-page-1') };
  });
  api.on('GET', COMMENTS, { json: f('comments-replies') });
};
const commentsOf = (r: PostComments) => {
  if (!r.ok) throw new Error(`no comments: ${r.reason}`);
  return r;
};

describe('YouTube comments', () => {
  it('pages through the threads, fetches the replies a thread leaves out, and lists held comments as hidden', async () => {
    threads();
    const { comments, complete } = commentsOf(await client().readComments(channel(), video(), ctx()));

    const calls = api.calls('GET', THREADS);
    expect(calls.map((r) => [r.query.get('moderationStatus'), r.query.get('pageToken')])).toEqual([
      [null, null],
      [null, 'QURTSl9pMlRYaFRTM0VqUG5GRkxzVlVqN2x1'],
      ['heldForReview', null],
      ['likelySpam', null],
    ]);
    expect(Object.fromEntries(calls[0]!.query)).toEqual({ part: 'snippet,replies', videoId: VIDEO, maxResults: '100', textFormat: 'plainText' });
    expect(calls[0]!.headers.authorization).toBe('Bearer ya29.tok');
    const [replies] = api.calls('GET', COMMENTS);
    expect(replies!.query.get('parentId')).toBe(ALICE);

    expect(complete).toBe(true);
    expect(comments.map((c) => [c.id, c.parentId, c.fromAccount, c.hidden])).toEqual([
      [CAROL, null, false, false],
      [ALICE, null, false, false],
      [OURS, ALICE, true, false],
      [BOB, ALICE, false, false],
      [ERIN, ALICE, false, false],
      [DAVE, null, false, false],
      [SPAM, null, false, true],
    ]);
    expect(comments.find((c) => c.id === BOB)).toEqual({
      id: BOB,
      parentId: ALICE,
      authorId: 'UCbobBBBBBBBBBBBBBBBBBBB',
      authorName: 'Bob Beans',
      authorHandle: null,
      authorAvatarUrl: 'https://yt3.ggpht.com/ytc/BBBBBB=s48-c-k-c0x00ffffff-no-rj',
      text: 'Save me a bag',
      createdAt: new Date('2026-11-25T11:00:00Z'),
      editedAt: null,
      permalink: `https://www.youtube.com/watch?v=${VIDEO}&lc=${BOB}`,
      hidden: false,
      fromAccount: false,
    });
  });

  it('says when a comment was edited', async () => {
    threads();
    const carol = commentsOf(await client().readComments(channel(), video(), ctx())).comments.find((c) => c.id === CAROL);
    expect(carol).toMatchObject({
      authorHandle: '@carol',
      text: 'Loved the grinder shots (edited: the burr close-up!)',
      createdAt: new Date('2026-11-25T12:00:00Z'),
      editedAt: new Date('2026-11-25T12:07:31Z'),
    });
  });

  it('says the list is incomplete when the token may not list held comments', async () => {
    threads();
    api.on('GET', THREADS, (req) =>
      req.query.get('moderationStatus')
        ? { status: 403, json: f('error-insufficient-permissions') }
        : { json: f(req.query.get('pageToken') ? 'comment-threads-page-2' : 'comment-threads-page-1') },
    );
    const read = commentsOf(await client().readComments(channel(), video(), ctx()));
    expect(read.complete).toBe(false);
    expect(read.comments).toHaveLength(6);
  });

  it('answers a deleted video, or one with comments off, with YouTube’s reason', async () => {
    api.on('GET', THREADS, { status: 404, json: f('error-video-not-found') });
    expect(await client().readComments(channel(), video('gone1234567'), ctx())).toEqual({
      ok: false,
      reason: 'The video identified by the <code><a href="/youtube/v3/docs/commentThreads/list#videoId">videoId</a></code> parameter could not be found.',
    });
    api.on('GET', THREADS, { status: 403, json: f('error-comments-disabled') });
    const off = await client().readComments(channel(), video(), ctx());
    expect(off).toEqual({ ok: false, reason: expect.stringContaining('has disabled comments') });
  });

  it('answers a reply in its thread, then reads the reply as the channel’s', async () => {
    api.on('GET', COMMENTS, { json: f('comments-by-id') });
    api.on('POST', COMMENTS, { json: f('comment-inserted') });
    const posted = await client().reply!(channel(), { postedId: VIDEO, commentId: BOB }, '@bob We will!', ctx());

    const newId = `${ALICE}.9xR0herald004`;
    expect(posted).toEqual({ id: newId, permalink: `https://www.youtube.com/watch?v=${VIDEO}&lc=${newId}` });
    expect(api.calls('GET', COMMENTS)[0]!.query.get('id')).toBe(BOB);
    const [insert] = api.calls('POST', COMMENTS);
    expect(insert!.query.get('part')).toBe('snippet');
    expect(insert!.headers.authorization).toBe('Bearer ya29.tok');
    expect(insert!.json()).toEqual({ snippet: { parentId: ALICE, textOriginal: '@bob We will!' } });

    threads();
    const replies = f('comments-replies');
    replies.items.push(f('comment-inserted'));
    api.on('GET', COMMENTS, { json: replies });
    const reread = commentsOf(await client().readComments(channel(), video(), ctx())).comments.find((c) => c.id === newId);
    expect(reread).toMatchObject({ parentId: ALICE, fromAccount: true, authorHandle: '@heraldcoffee' });
  });

  it('comments on the video itself with a new comment thread', async () => {
    api.on('POST', THREADS, { json: f('comment-thread-inserted') });
    const posted = await client().reply!(channel(), { postedId: VIDEO, commentId: null }, 'Thanks for watching!', ctx());
    expect(posted.id).toBe('UgzHeraldTopLevel78AaABAg');
    expect(api.calls('POST', THREADS)[0]!.json()).toEqual({
      snippet: { channelId: CHANNEL, videoId: VIDEO, topLevelComment: { snippet: { textOriginal: 'Thanks for watching!' } } },
    });
  });

  it('holds a comment for review to hide it, and publishes it again to show it', async () => {
    api.on('POST', `${COMMENTS}/setModerationStatus`, { status: 204 });
    await client().hide!(channel(), { postedId: VIDEO, commentId: SPAM }, true, ctx());
    await client().hide!(channel(), { postedId: VIDEO, commentId: SPAM }, false, ctx());
    const calls = api.calls('POST', `${COMMENTS}/setModerationStatus`);
    expect(calls.map((r) => Object.fromEntries(r.query))).toEqual([
      { id: SPAM, moderationStatus: 'heldForReview' },
      { id: SPAM, moderationStatus: 'published' },
    ]);
    expect(calls[0]!.text).toBe('');
  });

  it('offers exactly the catalogue’s actions: no delete, no like', () => {
    expect(client().delete).toBeUndefined();
    expect(client().like).toBeUndefined();
  });

  it('waits out a stated rate limit, and fails the connection on an exhausted quota', async () => {
    threads();
    api.on('GET', THREADS, { status: 429, headers: { 'retry-after': '0' }, json: f('error-rate-limit') }, { json: f('comment-threads-page-2') });
    expect(commentsOf(await client().readComments(channel(), video(), ctx())).comments.map((c) => c.id)).toEqual([DAVE]);
    expect(api.calls('GET', THREADS)).toHaveLength(4);

    api.on('GET', THREADS, { status: 403, json: f('error-quota-exceeded') });
    const error = await client()
      .readComments(channel(), video(), ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toContain('exceeded your');
  });

  it('raises TokenExpiredError when Google refuses the token and its refresh', async () => {
    const { connection, tokens } = storedConnection('youtube', {
      externalId: CHANNEL,
      accountName: '@heraldcoffee',
      accessToken: 'ya29.old',
      refreshToken: '1//revoked',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
    });
    api.on('GET', THREADS, { status: 401, json: f('error-invalid-credentials') });
    api.on('POST', '/token', { status: 400, json: f('token-refresh-refused') });
    const reader = client({ clientId: 'google-client', clientSecret: 'google-secret', tokenUrl: `${api.baseUrl}/token` });
    await expect(reader.readComments(connection, video(), { tokens, now })).rejects.toBeInstanceOf(TokenExpiredError);
    expect(api.calls('POST', '/token')[0]!.form().get('refresh_token')).toBe('1//revoked');
  });
});
