// The Google Business Profile reviews client against the documented Review shapes, served by
// the local HTTPS stand-in through the guarded client.
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/list
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews (Review, Reviewer, StarRating, ReviewReply)
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/updateReply
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/deleteReply
//   https://developers.google.com/identity/protocols/oauth2/web-server#offline (refresh)
import { describe, expect, it } from 'vitest';
import type { ConversationsContext } from '../conversations';
import { PlatformError, TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createGoogleBusinessReviewsClient, type GoogleBusinessReviewsOptions } from './google-business-reviews';

const f = (name: string) => fixture(import.meta.dirname, name);
const LOCATION = 'accounts/106324317373465838493/locations/8143792401563712436';
const REVIEWS = `/v4/${LOCATION}/reviews`;
const MAYA = 'AbFvOqnC0wYbA5Pq4nHkz2mXl9T1_Rg-7sVd';
const ANON = 'AbFvOqmT6eKqW3dJ0bYxN8hZr2PcLu-4aGfs';
const OLD = 'AbFvOqkX2aNs5yHf8vRmJq1tWc7Eb-0dLpZo';
const now = new Date('2026-11-27T12:00:00Z');

const api = useFakePlatformApi();
const connection = liveConnection('google_business', { externalId: LOCATION, accountName: 'Herald Coffee Soho', accessToken: 'ya29.current' });
const ctx = (): ConversationsContext => ({ tokens: new MemoryTokenStore(), now });
// No Google app: a refused token is not refreshed (the refresh test gives one).
const client = (extra: Partial<GoogleBusinessReviewsOptions> = {}) =>
  createGoogleBusinessReviewsClient({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra });

// ListReviewsResponse pages, Review as the reference shows it.
const page1 = {
  reviews: [
    {
      name: `${LOCATION}/reviews/${MAYA}`,
      reviewId: MAYA,
      reviewer: { profilePhotoUrl: 'https://lh3.googleusercontent.com/a-/maya=s120-c', displayName: 'Maya Lindqvist', isAnonymous: false },
      starRating: 'FIVE',
      comment: 'Best flat white in Soho, and they remembered my name.',
      createTime: '2026-11-25T10:05:12.345Z',
      updateTime: '2026-11-26T08:00:00Z',
      reviewReply: { comment: 'Thank you Maya, see you Saturday!', updateTime: '2026-11-26T09:30:00Z' },
    },
    {
      name: `${LOCATION}/reviews/${ANON}`,
      reviewId: ANON,
      reviewer: { displayName: 'A Google User', isAnonymous: true },
      starRating: 'TWO',
      createTime: '2026-11-24T17:45:00Z',
      updateTime: '2026-11-24T17:45:00Z',
    },
  ],
  averageRating: 3.7,
  totalReviewCount: 3,
  nextPageToken: 'CiAKGjBpNDd2Nmp2Zml2',
};
const page2 = {
  reviews: [
    {
      name: `${LOCATION}/reviews/${OLD}`,
      reviewId: OLD,
      reviewer: { profilePhotoUrl: 'https://lh3.googleusercontent.com/a-/jonas=s120-c', displayName: 'Jonas Berg', isAnonymous: false },
      starRating: 'STAR_RATING_UNSPECIFIED',
      comment: '(Translated by Google) Good coffee\n\n(Original)\nGott kaffe',
      createTime: '2025-03-02T11:00:00Z',
      updateTime: '2025-03-02T11:00:00Z',
    },
  ],
  averageRating: 3.7,
  totalReviewCount: 3,
};

describe('Google Business Profile reviews', () => {
  it('reads every page of the location’s reviews, newest first, with their stars and answers', async () => {
    api.on('GET', REVIEWS, { json: page1 }, { json: page2 });

    const reviews = await client().readReviews(connection, ctx());

    const [first, second, ...more] = api.calls('GET', REVIEWS);
    expect(more).toHaveLength(0);
    expect(first!.headers.authorization).toBe('Bearer ya29.current');
    expect(Object.fromEntries(first!.query)).toEqual({ pageSize: '50', orderBy: 'updateTime desc' });
    expect(Object.fromEntries(second!.query)).toEqual({ pageSize: '50', orderBy: 'updateTime desc', pageToken: 'CiAKGjBpNDd2Nmp2Zml2' });

    expect(reviews).toEqual([
      {
        id: MAYA,
        authorName: 'Maya Lindqvist',
        authorAvatarUrl: 'https://lh3.googleusercontent.com/a-/maya=s120-c',
        rating: 5,
        recommends: null,
        text: 'Best flat white in Soho, and they remembered my name.',
        createdAt: new Date('2026-11-25T10:05:12.345Z'),
        updatedAt: new Date('2026-11-26T08:00:00Z'),
        reply: { id: `${MAYA}/reply`, text: 'Thank you Maya, see you Saturday!', updatedAt: new Date('2026-11-26T09:30:00Z') },
        permalink: null,
      },
      {
        // Anonymous: Google's stand-in name, no picture; a rating with no words.
        id: ANON,
        authorName: 'A Google User',
        authorAvatarUrl: null,
        rating: 2,
        recommends: null,
        text: '',
        createdAt: new Date('2026-11-24T17:45:00Z'),
        updatedAt: new Date('2026-11-24T17:45:00Z'),
        reply: null,
        permalink: null,
      },
      expect.objectContaining({ id: OLD, rating: null, text: '(Translated by Google) Good coffee\n\n(Original)\nGott kaffe', reply: null }),
    ]);
  });

  it('stops at its page cap, and at a page token that repeats', async () => {
    api.on('GET', REVIEWS, { json: page1 });
    expect(await client({ maxPages: 1 }).readReviews(connection, ctx())).toHaveLength(2);
    expect(api.calls('GET', REVIEWS)).toHaveLength(1);

    api.reset();
    api.on('GET', REVIEWS, { json: page1 });
    const reviews = await client().readReviews(connection, ctx());
    expect(api.calls('GET', REVIEWS)).toHaveLength(2);
    // The same review on two pages is one review.
    expect(reviews.map((r) => r.id)).toEqual([MAYA, ANON]);
  });

  it('reads a location without reviews as none, and skips a review without an id', async () => {
    api.on('GET', REVIEWS, { json: { averageRating: 0, totalReviewCount: 0 } });
    expect(await client().readReviews(connection, ctx())).toEqual([]);

    api.on('GET', REVIEWS, { json: { reviews: [{ comment: 'no name' }, { name: `${LOCATION}/reviews/${OLD}`, starRating: 'FOUR' }, 'junk'] } });
    const [only, ...rest] = await client().readReviews(connection, ctx());
    expect(rest).toHaveLength(0);
    // No createTime: the read's own time.
    expect(only).toMatchObject({ id: OLD, rating: 4, authorName: 'Google user', createdAt: now, updatedAt: null });
  });

  it('answers a review, changes the answer with the same call, and takes it down', async () => {
    const reply = `${REVIEWS}/${MAYA}/reply`;
    api.on('PUT', reply, { json: { comment: 'Thank you Maya!', updateTime: '2026-11-27T12:00:01Z' } });
    api.on('DELETE', reply, { json: {} });

    expect(await client().replyToReview(connection, { reviewId: MAYA, replyId: null }, 'Thank you Maya!', ctx())).toEqual({ id: `${MAYA}/reply` });
    expect(await client().replyToReview(connection, { reviewId: MAYA, replyId: `${MAYA}/reply` }, 'Thanks again, Maya!', ctx())).toEqual({
      id: `${MAYA}/reply`,
    });
    await client().deleteReviewReply(connection, { reviewId: MAYA, replyId: `${MAYA}/reply` }, ctx());

    const puts = api.calls('PUT', reply);
    expect(puts.map((r) => r.json())).toEqual([{ comment: 'Thank you Maya!' }, { comment: 'Thanks again, Maya!' }]);
    expect(puts[0]!.headers['content-type']).toBe('application/json');
    expect(puts[0]!.headers.authorization).toBe('Bearer ya29.current');
    const [deleted] = api.calls('DELETE', reply);
    expect(deleted!.text).toBe('');
    expect(deleted!.headers.authorization).toBe('Bearer ya29.current');
  });

  it('fails the connection with TokenExpiredError when Google refuses the token', async () => {
    api.on('GET', REVIEWS, { status: 401, json: f('error-invalid-credentials') });
    const error = await failure(client().readReviews(connection, ctx()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe(f('error-invalid-credentials').error.message);

    api.on('PUT', `${REVIEWS}/${MAYA}/reply`, { status: 401, json: f('error-invalid-credentials') });
    expect(await failure(client().replyToReview(connection, { reviewId: MAYA, replyId: null }, 'x', ctx()))).toBeInstanceOf(TokenExpiredError);
  });

  it('refreshes an expired token before reading', async () => {
    const account = storedConnection('google_business', {
      externalId: LOCATION,
      accountName: 'Soho',
      accessToken: 'ya29.old',
      refreshToken: '1//0gLrefresh',
      tokenExpiresAt: new Date(Date.now() - 1000),
    });
    api.on('POST', '/token', { json: f('token-refreshed') });
    api.on('GET', REVIEWS, { json: page2 });
    const google = { clientId: 'google-client.apps.googleusercontent.com', clientSecret: 'google-secret', tokenUrl: `${api.baseUrl}/token` };
    const reviews = await client(google).readReviews(account.connection, { tokens: account.tokens, now });
    expect(reviews).toHaveLength(1);
    expect(api.calls('GET', REVIEWS)[0]!.headers.authorization).toBe(`Bearer ${f('token-refreshed').access_token}`);
    expect(account.tokens.saved[0]!.token.accessToken).toBe(f('token-refreshed').access_token);
  });

  it('passes Google’s other refusals on with Google’s words', async () => {
    const notFound = { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } };
    api.on('PUT', `${REVIEWS}/${OLD}/reply`, { status: 404, json: notFound });
    const gone = await failure(client().replyToReview(connection, { reviewId: OLD, replyId: null }, 'Thanks!', ctx()));
    expect(gone).not.toBeInstanceOf(TokenExpiredError);
    expect(gone.message).toBe('Requested entity was not found.');
    expect(gone.opts.status).toBe(404);

    // https://cloud.google.com/apis/design/errors: a location the user no longer manages.
    const denied = { error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } };
    api.on('PUT', `${REVIEWS}/${MAYA}/reply`, { status: 403, json: denied });
    const refused = await failure(client().replyToReview(connection, { reviewId: MAYA, replyId: null }, 'Thanks!', ctx()));
    expect(refused).not.toBeInstanceOf(TokenExpiredError);
    expect(refused.message).toBe('The caller does not have permission');

    api.on('DELETE', `${REVIEWS}/${MAYA}/reply`, { status: 429, json: f('error-rate-limit') });
    const limited = await failure(client().deleteReviewReply(connection, { reviewId: MAYA, replyId: `${MAYA}/reply` }, ctx()));
    expect(limited).not.toBeInstanceOf(TokenExpiredError);
    expect(limited.message).toContain('Quota exceeded');
  });

  it('refuses a connection that names no location, without calling Google', async () => {
    const account = liveConnection('google_business', { externalId: 'accounts/106324317373465838493', accountName: 'Herald', accessToken: 'ya29.current' });
    const error = await client()
      .readReviews(account, ctx())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toContain('names no location');
    expect(api.requests).toHaveLength(0);
  });
});
