// The LinkedIn comments client against the documented Comments and Reactions API shapes,
// served by the local HTTPS stand-in through the guarded client.
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/reactions-api
import { describe, expect, it } from 'vitest';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { offeredCommentActions } from '../catalogue/comments';
import { implementedCommentActions, type CommentsContext, type PostComments } from '../comments';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createLinkedInCommentsClient, type LinkedInCommentsOptions } from './linkedin-comments';

const f = (name: string) => fixture(import.meta.dirname, name);
const ORG = 'urn:li:organization:2414183';
const SHARE = 'urn:li:share:7210987654321098752';
const CANDIDATE = 'urn:li:comment:(urn:li:activity:7210987654321098752,7211001122334455667)';
const PARTNER = 'urn:li:comment:(urn:li:activity:7210987654321098752,7211002233445566778)';
const OURS = 'urn:li:comment:(urn:li:activity:7210987654321098752,7211003344556677889)';
const GUEST = 'urn:li:comment:(urn:li:activity:7210987654321098752,7211004455667788990)';
const CREATED = 'urn:li:comment:(urn:li:activity:7210987654321098752,7211009988776655443)';
/** A URN in a Rest.li path: percent-encoded, parentheses and commas too. */
const enc = (urn: string) => encodeURIComponent(urn).replace(/\(/g, '%28').replace(/\)/g, '%29');
const ON_POST = `/rest/socialActions/${enc(SHARE)}/comments`;
const ON_CANDIDATE = `/rest/socialActions/${enc(CANDIDATE)}/comments`;

const api = useFakePlatformApi();
const connection = liveConnection('linkedin', { externalId: ORG, accountName: 'Herald Coffee', accessToken: 'AQV-linkedin-token' });
const post = { postedId: SHARE, publishedAt: new Date('2026-11-25T09:00:00Z') };
const ctx = (): CommentsContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:00:00Z') });
const client = (extra: Partial<LinkedInCommentsOptions> = {}) =>
  createLinkedInCommentsClient({ fetch: api.fetch, baseUrl: api.baseUrl, version: '202605', clientId: '', clientSecret: '', ...extra });
const listOf = (result: PostComments) => {
  if (!result.ok) throw new Error(`no comments: ${result.reason}`);
  return result;
};

function conversation() {
  api.on('GET', ON_POST, { json: f('comments-page-1') }, { json: f('comments-page-2') });
  api.on('GET', ON_CANDIDATE, { json: f('comment-replies') });
}

describe('LinkedIn comments', () => {
  it('offers exactly the actions of its catalogue entry', () => {
    expect(implementedCommentActions(client())).toEqual(offeredCommentActions(PLATFORM_CATALOGUE.linkedin.comments));
  });

  it('reads every page of the post’s comments and the comments on them, flattened with their parent', async () => {
    conversation();

    const result = listOf(await client().readComments(connection, post, ctx()));

    const [first, second] = api.calls('GET', ON_POST);
    expect(first!.headers).toMatchObject({
      authorization: 'Bearer AQV-linkedin-token',
      'linkedin-version': '202605',
      'x-restli-protocol-version': '2.0.0',
    });
    expect(Object.fromEntries(first!.query)).toEqual({ start: '0', count: '50' });
    expect(Object.fromEntries(second!.query)).toEqual({ start: '2', count: '50' });
    // Only the comment whose summary counts comments of its own is asked for them.
    expect(api.requests.map((r) => r.path)).toEqual([ON_POST, ON_POST, ON_CANDIDATE]);

    expect(result.complete).toBe(true);
    expect(result.comments.map((c) => [c.id, c.parentId, c.fromAccount])).toEqual([
      [CANDIDATE, null, false],
      [OURS, CANDIDATE, true],
      [PARTNER, null, false],
      [GUEST, null, false],
    ]);
    expect(result.comments[0]).toEqual({
      id: CANDIDATE,
      parentId: null,
      authorId: 'urn:li:person:Ab3dEf6hIj',
      authorName: 'LinkedIn member',
      authorHandle: null,
      text: 'Congrats on the new roastery! Are you hiring baristas too? And roasters?',
      createdAt: new Date('2026-11-25T10:12:12Z'),
      // Edited the next morning: lastModified is later than created.
      editedAt: new Date('2026-11-26T08:30:00Z'),
      permalink: null,
      fromAccount: false,
    });
    expect(result.comments[1]).toMatchObject({ authorId: ORG, authorName: 'Herald Coffee', editedAt: null });
    expect(result.comments[2]).toMatchObject({ authorId: 'urn:li:organization:90210777', authorName: 'LinkedIn page' });
  });

  it('stops at its page cap and says the list is not the whole conversation', async () => {
    conversation();
    const result = listOf(await client({ maxPages: 2 }).readComments(connection, post, ctx()));
    expect(result.complete).toBe(false);
    expect(api.calls('GET', ON_CANDIDATE)).toHaveLength(0);
    expect(result.comments.map((c) => c.id)).toEqual([CANDIDATE, PARTNER, GUEST]);
  });

  it('comments under a comment as the page, then knows the comment as its own on the next read', async () => {
    const onPartner = `/rest/socialActions/${enc(PARTNER)}/comments`;
    api.on('POST', onPartner, { status: 201, headers: { 'x-restli-id': '7211009988776655443' }, json: f('comment-created') });

    const reply = await client().reply!(connection, { postedId: SHARE, commentId: PARTNER }, 'Thank you, see you on Saturday!', ctx());

    expect(reply).toEqual({ id: CREATED, permalink: null });
    const [sent] = api.calls('POST', onPartner);
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.json()).toEqual({
      actor: ORG,
      object: SHARE,
      message: { text: 'Thank you, see you on Saturday!' },
      parentComment: PARTNER,
    });

    const created = f('comment-created');
    api.on('GET', ON_POST, {
      json: {
        paging: { start: 0, count: 50, links: [], total: 1 },
        elements: [{ ...f('comments-page-1').elements[1], commentsSummary: { totalFirstLevelComments: 1, aggregatedTotalComments: 1 } }],
      },
    });
    api.on('GET', `/rest/socialActions/${enc(PARTNER)}/comments`, { json: { paging: { start: 0, count: 50, total: 1 }, elements: [created] } });
    const next = listOf(await client().readComments(connection, post, ctx()));
    expect(next.comments.map((c) => [c.id, c.parentId, c.fromAccount])).toEqual([
      [PARTNER, null, false],
      [CREATED, PARTNER, true],
    ]);
  });

  it('comments on the post itself, taking the id LinkedIn gives when the body has no comment URN', async () => {
    api.on('POST', ON_POST, { status: 201, headers: { 'x-restli-id': '7211009988776655999' }, body: '' });
    const reply = await client().reply!(connection, { postedId: SHARE, commentId: null }, 'Opening day is Saturday', ctx());
    expect(reply).toEqual({ id: '7211009988776655999', permalink: null });
    expect(api.calls('POST', ON_POST)[0]!.json()).toEqual({ actor: ORG, object: SHARE, message: { text: 'Opening day is Saturday' } });
  });

  it('deletes a comment as the page and likes one with a LIKE reaction', async () => {
    const deletePath = `/rest/socialActions/${enc(SHARE)}/comments/7211004455667788990`;
    api.on('DELETE', deletePath, { status: 204 });
    api.on('POST', '/rest/reactions', { status: 201, json: { root: CANDIDATE, reactionType: 'LIKE' } });

    await client().delete!(connection, { postedId: SHARE, commentId: GUEST }, ctx());
    await client().like!(connection, { postedId: SHARE, commentId: CANDIDATE }, ctx());

    const [deleted] = api.calls('DELETE', deletePath);
    expect(deleted!.query.get('actor')).toBe(ORG);
    const [liked] = api.calls('POST', '/rest/reactions');
    expect(liked!.query.get('actor')).toBe(ORG);
    expect(liked!.json()).toEqual({ root: CANDIDATE, reactionType: 'LIKE' });
  });

  it('passes a refused delete on with LinkedIn’s words', async () => {
    api.on('DELETE', `/rest/socialActions/${enc(SHARE)}/comments/7211004455667788990`, { status: 403, json: f('error-comment-delete-forbidden') });
    const error = await failure(client().delete!(connection, { postedId: SHARE, commentId: GUEST }, ctx()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Not enough permissions to access: socialActions.comments.DELETE.20260501');
    expect(error.opts).toEqual({ status: 403 });
  });

  it('reads an edited comment’s new text, and a deleted comment is gone from a complete list', async () => {
    const page = f('comments-page-2');
    api.on('GET', ON_POST, { json: { ...page, paging: { start: 0, count: 50, total: 1 } } });
    listOf(await client().readComments(connection, post, ctx()));

    const edited = { ...page.elements[0], message: { attributes: [], text: 'See you at the opening on Saturday.' }, lastModified: { time: 1795780804000 } };
    api.on('GET', ON_POST, { json: { paging: { start: 0, count: 50, total: 1 }, elements: [edited] } });
    const after = listOf(await client().readComments(connection, post, ctx()));
    expect(after.comments.map((c) => [c.text, c.editedAt])).toEqual([['See you at the opening on Saturday.', new Date('2026-11-27T12:00:04Z')]]);

    api.on('GET', ON_POST, { json: { paging: { start: 0, count: 50, total: 0 }, elements: [] } });
    expect(await client().readComments(connection, post, ctx())).toEqual({ ok: true, comments: [], complete: true });
  });

  it('answers a post LinkedIn no longer has with LinkedIn’s words', async () => {
    api.on('GET', ON_POST, { status: 404, json: f('error-post-not-found') });
    expect(await client().readComments(connection, post, ctx())).toEqual({ ok: false, reason: 'Not Found: urn:li:share:7210987654321098752' });
  });

  it('waits out a 429 that states its Retry-After, and passes one that does not on with LinkedIn’s words', async () => {
    api.on('GET', ON_POST, { status: 429, headers: { 'retry-after': '0' }, json: f('error-throttled') }, { json: f('comments-page-2') });
    const result = listOf(await client().readComments(connection, post, ctx()));
    expect(api.calls('GET', ON_POST)).toHaveLength(2);
    expect(result.comments.map((c) => c.id)).toEqual([GUEST]);

    api.on('GET', ON_POST, { status: 429, json: f('error-throttled') });
    const error = await failure(client().readComments(connection, post, ctx()));
    expect(error).not.toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Resource level throttle APPLICATION DAY limit for calls to this resource is reached.');
    expect(error.opts).toEqual({ status: 429 });
  });

  it('fails the connection with TokenExpiredError when the token was revoked', async () => {
    api.on('GET', ON_POST, { status: 401, json: f('error-token-expired') });
    const error = await failure(client().readComments(connection, post, ctx()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('The token used in the request has been revoked by the user');
  });
});
