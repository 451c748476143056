// The Facebook reviews client against the documented recommendation and comment shapes, served
// by the local HTTPS stand-in through the guarded client.
//   https://developers.facebook.com/docs/graph-api/reference/page/ratings/
//   https://developers.facebook.com/docs/graph-api/reference/recommendation/ (fields)
//   https://developers.facebook.com/docs/graph-api/reference/object/comments (answering under the story)
//   https://developers.facebook.com/docs/graph-api/reference/comment (changing, deleting)
//   https://developers.facebook.com/docs/graph-api/results (cursor paging)
import { describe, expect, it } from 'vitest';
import type { ConversationsContext } from '../conversations';
import { RetiredCallError, TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createFacebookReviewsClient, FACEBOOK_RATINGS_FIELDS, type FacebookReviewsOptions } from './facebook-reviews';

const f = (name: string) => fixture(import.meta.dirname, name);
const PAGE = '546349135390552';
const RATINGS = `/v25.0/${PAGE}/ratings`;
const MAYA_STORY = '10160383920545791';
const JONAS_STORY = '10160379211875791';
const QUIET_STORY = '10160371045105791';
const ANSWER = '10160383920545791_1116811742299021';
const now = new Date('2026-11-27T12:00:00Z');

const api = useFakePlatformApi();
const connection = liveConnection('facebook', { externalId: PAGE, accountName: 'Herald Coffee', accessToken: 'EAAB-page-token' });
const ctx = (): ConversationsContext => ({ tokens: new MemoryTokenStore(), now });
const client = (extra: Partial<FacebookReviewsOptions> = {}) => createFacebookReviewsClient({ fetch: api.fetch, baseUrl: `${api.baseUrl}/v25.0`, ...extra });

// GET /{page-id}/ratings pages, each Recommendation with its story's top-level comments expanded.
const page1 = {
  data: [
    {
      created_time: '2026-11-25T10:05:12+0000',
      recommendation_type: 'positive',
      review_text: 'Best flat white in Soho.',
      reviewer: { id: '8123409876543210', name: 'Maya Lindqvist' },
      open_graph_story: {
        id: MAYA_STORY,
        comments: {
          data: [
            { id: `${MAYA_STORY}_1116809001234567`, from: { id: '8123409876543999' }, message: 'Agreed!', created_time: '2026-11-25T11:00:00+0000' },
            { id: ANSWER, from: { id: PAGE }, message: 'Thank you Maya!', created_time: '2026-11-25T12:30:00+0000' },
          ],
          paging: { cursors: { before: 'QVFIUj', after: 'QVFIUk' } },
        },
      },
    },
    {
      created_time: '2026-11-24T17:45:00+0000',
      recommendation_type: 'negative',
      review_text: 'Waited 20 minutes for a cortado.',
      reviewer: { id: '8123409876540001', name: 'Jonas Berg' },
      open_graph_story: { id: JONAS_STORY },
    },
  ],
  paging: {
    cursors: { before: 'MTAxNjAzODM5MjA1NDU3OTEZD', after: 'MTAxNjAzNzkyMTE4NzU3OTEZD' },
    next: `https://graph.facebook.com/v25.0/${PAGE}/ratings?limit=50&after=MTAxNjAzNzkyMTE4NzU3OTEZD`,
  },
};
const page2 = {
  data: [
    // Someone who has not authorized the app: no reviewer from Graph.
    { created_time: '2026-11-20T09:00:00+0000', recommendation_type: 'positive', open_graph_story: { id: QUIET_STORY } },
    // No story: listed under an id of Herald's making, not answerable.
    { created_time: '2026-11-19T08:00:00+0000', recommendation_type: 'positive', review_text: 'Lovely', reviewer: { id: '8123409876540002', name: 'Ana' } },
    // No story and no reviewer, or no time Graph wrote: nothing stable to name it by.
    { created_time: '2026-11-18T08:00:00+0000', recommendation_type: 'negative' },
    { created_time: 'yesterday', recommendation_type: 'negative', reviewer: { id: '8123409876540003', name: 'Lee' } },
  ],
  paging: { cursors: { before: 'MTAxNjAzNzEwNDUxMDU3OTEZD', after: 'MTAxNjAzNzEwNDUxMDU3OTEZE' } },
};

describe('Facebook reviews', () => {
  it('reads every page of the Page’s recommendations, each with the Page’s own answer', async () => {
    api.on('GET', RATINGS, { json: page1 }, { json: page2 });

    const reviews = await client().readReviews(connection, ctx());

    const [first, second, ...more] = api.calls('GET', RATINGS);
    expect(more).toHaveLength(0);
    expect(first!.headers.authorization).toBe('Bearer EAAB-page-token');
    expect(Object.fromEntries(first!.query)).toEqual({ fields: FACEBOOK_RATINGS_FIELDS, limit: '50' });
    expect(FACEBOOK_RATINGS_FIELDS).toBe(
      'reviewer{id,name},recommendation_type,review_text,created_time,open_graph_story{id,comments.limit(25){id,from{id},message,created_time}}',
    );
    expect(second!.query.get('after')).toBe('MTAxNjAzNzkyMTE4NzU3OTEZD');

    expect(reviews).toEqual([
      {
        id: MAYA_STORY,
        authorName: 'Maya Lindqvist',
        authorAvatarUrl: null,
        rating: null,
        recommends: true,
        text: 'Best flat white in Soho.',
        createdAt: new Date('2026-11-25T10:05:12Z'),
        updatedAt: null,
        reply: { id: ANSWER, text: 'Thank you Maya!', updatedAt: new Date('2026-11-25T12:30:00Z') },
        permalink: null,
      },
      expect.objectContaining({ id: JONAS_STORY, authorName: 'Jonas Berg', recommends: false, reply: null }),
      expect.objectContaining({ id: QUIET_STORY, authorName: 'Facebook user', recommends: true, text: '', reply: null }),
      expect.objectContaining({ id: `rating:8123409876540002:${Date.parse('2026-11-19T08:00:00Z') / 1000}`, authorName: 'Ana', text: 'Lovely' }),
    ]);
  });

  it('stops at its page cap', async () => {
    api.on('GET', RATINGS, { json: page1 }, { json: page2 });
    expect(await client({ maxPages: 1 }).readReviews(connection, ctx())).toHaveLength(2);
    expect(api.calls('GET', RATINGS)).toHaveLength(1);
  });

  it('answers under the recommendation’s story, changes the answer and deletes it', async () => {
    api.on('POST', `/v25.0/${JONAS_STORY}/comments`, { json: { id: `${JONAS_STORY}_1116820000000001` } });
    api.on('POST', `/v25.0/${ANSWER}`, { json: f('success') });
    api.on('DELETE', `/v25.0/${ANSWER}`, { json: f('success') });

    const posted = await client().replyToReview(connection, { reviewId: JONAS_STORY, replyId: null }, 'Sorry Jonas, we have a second grinder now.', ctx());
    expect(posted).toEqual({ id: `${JONAS_STORY}_1116820000000001` });
    const [post] = api.calls('POST', `/v25.0/${JONAS_STORY}/comments`);
    expect(Object.fromEntries(post!.form())).toEqual({ message: 'Sorry Jonas, we have a second grinder now.' });
    expect(post!.headers.authorization).toBe('Bearer EAAB-page-token');

    expect(await client().replyToReview(connection, { reviewId: MAYA_STORY, replyId: ANSWER }, 'Thank you Maya, see you Saturday!', ctx())).toEqual({
      id: ANSWER,
    });
    expect(Object.fromEntries(api.calls('POST', `/v25.0/${ANSWER}`)[0]!.form())).toEqual({ message: 'Thank you Maya, see you Saturday!' });
    expect(api.calls('POST', `/v25.0/${MAYA_STORY}/comments`)).toHaveLength(0);

    await client().deleteReviewReply(connection, { reviewId: MAYA_STORY, replyId: ANSWER }, ctx());
    expect(api.calls('DELETE', `/v25.0/${ANSWER}`)).toHaveLength(1);
  });

  it('refuses to answer a recommendation without a story, and a change Graph did not confirm', async () => {
    const storyless = await failure(client().replyToReview(connection, { reviewId: 'rating:8123409876540002:1763539200', replyId: null }, 'Thanks', ctx()));
    expect(storyless.message).toContain('nothing to answer it under');
    expect(api.requests).toHaveLength(0);

    api.on('POST', `/v25.0/${ANSWER}`, { json: { success: false } });
    const edit = await failure(client().replyToReview(connection, { reviewId: MAYA_STORY, replyId: ANSWER }, 'x', ctx()));
    expect(edit.message).toBe('Facebook did not confirm changing the answer');

    api.on('DELETE', `/v25.0/${ANSWER}`, { json: {} });
    const removal = await failure(client().deleteReviewReply(connection, { reviewId: MAYA_STORY, replyId: ANSWER }, ctx()));
    expect(removal.message).toBe('Facebook did not confirm deleting the answer');
  });

  it('fails the connection with TokenExpiredError when the token was revoked', async () => {
    api.on('GET', RATINGS, { status: 400, json: f('error-token-revoked') });
    const error = await failure(client().readReviews(connection, ctx()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-token-revoked').error.message);

    api.on('POST', `/v25.0/${JONAS_STORY}/comments`, { status: 400, json: f('error-token-expired') });
    expect(await failure(client().replyToReview(connection, { reviewId: JONAS_STORY, replyId: null }, 'x', ctx()))).toBeInstanceOf(TokenExpiredError);
  });

  it('tells a read Graph no longer serves (error code 12: the Recommendation node, deprecated from v22.0) from a failure', async () => {
    // https://developers.facebook.com/docs/graph-api/reference/recommendation/: "This field is deprecated for v22.0 and
    // future versions. Attempting to query an edge or field that returns a recommendation using v22.0 or later will
    // return error code 12."
    const deprecated = {
      error: { message: '(#12) ratings field is deprecated for versions v22.0 and higher', type: 'OAuthException', code: 12, fbtrace_id: 'AZq3bXk1v9Yd' },
    };
    api.on('GET', RATINGS, { status: 400, json: deprecated });
    const error = await failure(client().readReviews(connection, ctx()));
    expect(error).toBeInstanceOf(RetiredCallError);
    expect(error.message).toBe(deprecated.error.message);
  });

  it('passes Graph’s other refusals on with Graph’s words', async () => {
    api.on('GET', RATINGS, { status: 400, json: f('error-page-throttled') });
    const throttled = await failure(client().readReviews(connection, ctx()));
    expect(throttled).not.toBeInstanceOf(TokenExpiredError);
    expect(throttled.message).toBe('(#32) Page request limit reached');

    api.on('DELETE', `/v25.0/${ANSWER}`, { status: 500, json: f('error-unknown') });
    const down = await failure(client().deleteReviewReply(connection, { reviewId: MAYA_STORY, replyId: ANSWER }, ctx()));
    expect(down).not.toBeInstanceOf(TokenExpiredError);
    expect(down.message).toBe(f('error-unknown').error.message);
  });
});
