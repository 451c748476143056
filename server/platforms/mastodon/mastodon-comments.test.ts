// The Mastodon comments client against the documented context, status and error answers, served
// by the local HTTPS stand-in (as the account's server) through the guarded client.
//   https://docs.joinmastodon.org/methods/statuses/#context (descendants; 4,096 with a user token;
//     404 Record not found)
//   https://docs.joinmastodon.org/entities/Status/ (in_reply_to_id, edited_at, content, account, url)
//   https://docs.joinmastodon.org/methods/statuses/#create (in_reply_to_id, visibility, Idempotency-Key)
//   https://docs.joinmastodon.org/methods/statuses/#favourite
//   https://docs.joinmastodon.org/api/rate-limits/ (429, X-RateLimit-Reset)
import { describe, expect, it } from 'vitest';
import { fixture } from '../testing/fake-platform-api';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { PlatformError, TokenExpiredError } from '../publisher';
import type { PostComments } from '../comments';
import { createMastodonCommentsClient, plainText } from './mastodon-comments';

const api = useFakePlatformApi();
const f = (name: string) => fixture(import.meta.dirname, name);
const POST = '113546730183612345';
const ALICE = '113546790012340001';
const OURS = '113546801234560002';
const BOB = '113546812345670003';
const CARLA = '113546823456780004';
const CONTEXT = `/api/v1/statuses/${POST}/context`;
const now = new Date('2026-11-27T12:00:00Z');
const ctx = (extra = {}) => ({ tokens: new MemoryTokenStore(), now, ...extra });
const post = (postedId = POST) => ({ postedId, publishedAt: new Date('2026-11-25T09:00:00Z') });
const client = () => createMastodonCommentsClient({ fetch: api.fetch, baseUrl: api.baseUrl });
const account = () =>
  liveConnection('mastodon', {
    externalId: '14715@mastodon.example',
    accountName: '@heraldcoffee@mastodon.example',
    accessToken: 'masto-token',
    platformData: { instanceUrl: 'https://mastodon.example', accountId: '14715' },
  });
const commentsOf = (r: PostComments) => {
  if (!r.ok) throw new Error(`no comments: ${r.reason}`);
  return r;
};

describe('Mastodon comments', () => {
  it('reads the descendants flattened, each with the status it answers; an edited reply says when', async () => {
    api.on('GET', CONTEXT, { json: f('context') });
    const { comments, complete } = commentsOf(await client().readComments(account(), post(), ctx()));
    expect(api.calls('GET', CONTEXT)[0]!.headers.authorization).toBe('Bearer masto-token');

    expect(complete).toBe(true);
    expect(comments.map((c) => [c.id, c.parentId, c.fromAccount])).toEqual([
      [ALICE, null, false],
      [OURS, ALICE, true],
      [BOB, OURS, false],
      [CARLA, null, false],
    ]);
    expect(comments[0]).toEqual({
      id: ALICE,
      parentId: null,
      authorId: '110987654321000042',
      authorName: 'Alice',
      authorHandle: '@alice@fosstodon.example',
      authorAvatarUrl: 'https://files.mastodon.example/cache/accounts/avatars/110/987/654/321/000/042/original/alice.png',
      text: '@heraldcoffee Is the Ethiopian back?\n\nAsking for a friend.\nTwo friends.',
      createdAt: new Date('2026-11-25T10:05:11.000Z'),
      editedAt: new Date('2026-11-25T10:09:40.000Z'),
      permalink: 'https://fosstodon.example/@alice/113546789999990001',
      fromAccount: false,
    });
    expect(comments[2]).toMatchObject({ authorName: 'bob', authorHandle: '@bob', text: '@heraldcoffee Save me a bag & a cup.', editedAt: null });
  });

  it('sees a deleted reply gone from the next read, and answers a deleted status with Mastodon’s reason', async () => {
    const later = f('context');
    later.descendants.splice(2, 1);
    api.on('GET', CONTEXT, { json: later });
    expect(commentsOf(await client().readComments(account(), post(), ctx())).comments.map((c) => c.id)).toEqual([ALICE, OURS, CARLA]);

    api.on('GET', '/api/v1/statuses/113546700000000000/context', { status: 404, json: f('error-not-found') });
    expect(await client().readComments(account(), post('113546700000000000'), ctx())).toEqual({ ok: false, reason: 'Record not found' });
  });

  it('reads without the token when it lacks read:statuses, and then says the list may be incomplete', async () => {
    api.on('GET', CONTEXT, (req) => (req.headers.authorization ? { status: 403, json: f('error-outside-scopes') } : { json: f('context') }));
    const read = commentsOf(await client().readComments(account(), post(), ctx()));
    expect(read.comments).toHaveLength(4);
    expect(read.complete).toBe(false);
    expect(api.calls('GET', CONTEXT).map((r) => r.headers.authorization ?? null)).toEqual(['Bearer masto-token', null]);
  });

  it('replies with the Idempotency-Key, no more public than the comment, and reads the reply as the account’s', async () => {
    api.on('GET', `/api/v1/statuses/${BOB}`, { json: f('status-comment-private') });
    api.on('POST', '/api/v1/statuses', { json: f('status-reply') });
    const posted = await client().reply!(account(), { postedId: POST, commentId: BOB }, 'Saved one for you.', ctx({ idempotencyKey: 'reply-7f3a' }));

    expect(posted).toEqual({ id: '113546900000000005', permalink: 'https://mastodon.example/@heraldcoffee/113546900000000005' });
    const [create] = api.calls('POST', '/api/v1/statuses');
    expect(create!.headers['idempotency-key']).toBe('reply-7f3a');
    expect(create!.headers.authorization).toBe('Bearer masto-token');
    expect(create!.json()).toEqual({ status: 'Saved one for you.', in_reply_to_id: BOB, visibility: 'private' });

    const later = f('context');
    later.descendants.push(f('status-reply'));
    api.on('GET', CONTEXT, { json: later });
    const reread = commentsOf(await client().readComments(account(), post(), ctx())).comments.at(-1);
    expect(reread).toMatchObject({ id: posted.id, parentId: BOB, fromAccount: true, text: 'Saved one for you.' });
  });

  it('answers a public status with the account’s own default visibility', async () => {
    api.on('GET', `/api/v1/statuses/${POST}`, { json: f('status') });
    api.on('POST', '/api/v1/statuses', { json: f('status-reply') });
    await client().reply!(account(), { postedId: POST, commentId: null }, 'Thanks, all!', ctx({ idempotencyKey: 'reply-8b' }));
    expect(api.calls('POST', '/api/v1/statuses')[0]!.json()).toEqual({ status: 'Thanks, all!', in_reply_to_id: POST });
  });

  it('refuses a reply longer than the server allows, before sending it', async () => {
    const small = { ...account(), platformData: { instanceUrl: 'https://mastodon.example', accountId: '14715', maxChars: 20 } };
    const error = await client().reply!(small, { postedId: POST, commentId: ALICE }, 'A reply that runs well past twenty characters.', ctx()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe('This Mastodon server allows 20 characters; this text counts 46');
    expect(api.requests).toHaveLength(0);
  });

  it('favourites a reply', async () => {
    api.on('POST', `/api/v1/statuses/${ALICE}/favourite`, { json: f('status-favourited') });
    await client().like!(account(), { postedId: POST, commentId: ALICE }, ctx());
    const [req] = api.calls('POST', `/api/v1/statuses/${ALICE}/favourite`);
    expect(req!.headers.authorization).toBe('Bearer masto-token');
  });

  it('offers exactly the catalogue’s actions: no hide, no delete', () => {
    expect(client().hide).toBeUndefined();
    expect(client().delete).toBeUndefined();
  });

  it('waits out the reset Mastodon states, and fails the connection on a 429 it cannot wait out', async () => {
    api.on('GET', CONTEXT, () => ({ status: 429, headers: { 'x-ratelimit-reset': new Date().toISOString() }, json: f('error-rate-limit') }), {
      json: f('context'),
    });
    expect(commentsOf(await client().readComments(account(), post(), ctx())).comments).toHaveLength(4);
    expect(api.calls('GET', CONTEXT)).toHaveLength(2);

    api.on('GET', CONTEXT, { status: 429, json: f('error-rate-limit') });
    const error = await client()
      .readComments(account(), post(), ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe('Too many requests');
  });

  it('fails the connection with TokenExpiredError when the server refuses the token', async () => {
    api.on('GET', CONTEXT, { status: 401, json: f('error-token-invalid') });
    const error = await client()
      .readComments(account(), post(), ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect((error as Error).message).toBe('The access token is invalid');
    api.on('POST', `/api/v1/statuses/${ALICE}/favourite`, { status: 401, json: f('error-token-invalid') });
    await expect(client().like!(account(), { postedId: POST, commentId: ALICE }, ctx())).rejects.toBeInstanceOf(TokenExpiredError);
  });

  it('turns status HTML into text', () => {
    expect(plainText('<p>One<br>two</p><p>three &lt;4&gt;</p>')).toBe('One\ntwo\n\nthree <4>');
  });
});
