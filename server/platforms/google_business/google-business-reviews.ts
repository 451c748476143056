// Google Business Profile reviews: the connected location's reviews, read and answered as the
// location's owner (externalId = accounts/{a}/locations/{l}, the Google OAuth token).
//
// Sources:
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/list
//     GET /v4/{parent=accounts/*/locations/*}/reviews?pageSize= (at most 50)&pageToken=&orderBy=
//     ("rating", "rating desc" or "updateTime desc", the default) → { reviews: [Review],
//     averageRating, totalReviewCount, nextPageToken } ("If there are no more reviews, this field
//     is not present"). "This operation is only valid if the specified location is verified."
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews#Review
//     name (accounts/…/reviews/{reviewId}), reviewId, reviewer { profilePhotoUrl, displayName,
//     isAnonymous } (the photo and the real name "only populated if isAnonymous is false"),
//     starRating STAR_RATING_UNSPECIFIED | ONE … FIVE, comment, createTime, updateTime,
//     reviewReply { comment, updateTime }.
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/updateReply
//     PUT …/reviews/{reviewId}/reply, body ReviewReply { comment } → ReviewReply. "A reply is
//     created if one does not exist": answering and changing the answer are the one call.
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/deleteReply
//     DELETE …/reviews/{reviewId}/reply → empty.
// A review carries one answer at most and Google gives it no id of its own: the answer is named
// `{reviewId}/reply` so the inbox can address it like any network's. A review has no address of
// its own in the API either, so its permalink is null.
import { apiEndpoint, callApi, jsonAt, jsonString, type Fetcher } from '../http';
import { googleError, googleRefresher } from '../google/google-api';
import { networkDate } from '../comments';
import type { NetworkReview, ReviewsClient } from '../conversations';
import { oauthApps } from '../oauth-apps';
import { PlatformError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { GOOGLE_BUSINESS_DEFAULT_BASE_URL, googleBusinessHosts, LOCATION_NAME } from './google-business-api';
import type { GoogleBusinessOptions } from './google-business-publisher';

const NAME = 'Google Business Profile';
/** The most Google serves in one page. */
const PAGE_SIZE = 50;
/**
 * Pages one read asks for at most (1,000 reviews): newest first, so a location with more loses
 * only its oldest, which nobody answers any more; a runaway page token stops here too.
 */
export const GOOGLE_REVIEW_PAGES = 20;

const STARS: ReadonlyMap<string, number> = new Map([
  ['ONE', 1],
  ['TWO', 2],
  ['THREE', 3],
  ['FOUR', 4],
  ['FIVE', 5],
]);

export interface GoogleBusinessReviewsOptions extends GoogleBusinessOptions {
  /** The most pages one read asks for (GOOGLE_REVIEW_PAGES). */
  maxPages?: number;
}

/** What Herald calls the location's answer to a review (Google names none). */
export const googleReplyId = (reviewId: string): string => `${reviewId}/reply`;

export function createGoogleBusinessReviewsClient(options: GoogleBusinessReviewsOptions = {}): ReviewsClient {
  /** Runs `call` with the location's base path and a token, refreshing it as the other Google calls do. */
  const withLocation = async <T>(
    connection: PublishableConnection,
    tokens: TokenStore,
    call: (api: { fetch: Fetcher; location: string; token: string }) => Promise<T>,
  ): Promise<T> => {
    const { fetch, baseUrl } = apiEndpoint(options, 'GOOGLE_BUSINESS_API_BASE_URL', GOOGLE_BUSINESS_DEFAULT_BASE_URL);
    if (!LOCATION_NAME.test(connection.externalId)) {
      throw new PlatformError(`This Google Business Profile connection names no location (${connection.externalId}); reconnect it`);
    }
    const location = `${googleBusinessHosts(baseUrl).posts}/v4/${connection.externalId}`;
    return withAccessToken(connection, googleRefresher(fetch, options, oauthApps.google_business()), tokens, (token) => call({ fetch, location, token }));
  };

  const send = async (fetch: Fetcher, url: string, token: string, request: { method: string; json?: unknown }) => {
    const response = await callApi(fetch, url, { ...request, headers: { authorization: `Bearer ${token}` }, timeoutMs: options.timeoutMs });
    const error = googleError(response, NAME); // 401 → token refused (refreshed once); the rest with Google's words
    if (error) throw error;
    return response;
  };

  const replyUrl = (location: string, reviewId: string) => `${location}/reviews/${encodeURIComponent(reviewId)}/reply`;

  return {
    source: 'google_business',

    readReviews(connection, { tokens, now }) {
      return withLocation(connection, tokens, async ({ fetch, location, token }) => {
        const reviews: NetworkReview[] = [];
        const seen = new Set<string>();
        let pageToken: string | undefined;
        for (let page = 0; page < (options.maxPages ?? GOOGLE_REVIEW_PAGES); page++) {
          const url = new URL(`${location}/reviews`);
          url.searchParams.set('pageSize', String(PAGE_SIZE));
          url.searchParams.set('orderBy', 'updateTime desc');
          if (pageToken) url.searchParams.set('pageToken', pageToken);
          const response = await send(fetch, url.toString(), token, { method: 'GET' });
          const listed = jsonAt(response.json, 'reviews');
          for (const raw of Array.isArray(listed) ? listed : []) {
            const review = toReview(raw, now);
            // A review updated between two pages can come back on both.
            if (review && !seen.has(review.id)) {
              seen.add(review.id);
              reviews.push(review);
            }
          }
          const next = jsonString(response.json, 'nextPageToken');
          if (!next || next === pageToken) break;
          pageToken = next;
        }
        return reviews;
      });
    },

    replyToReview(connection, { reviewId }, text, { tokens }) {
      return withLocation(connection, tokens, async ({ fetch, location, token }) => {
        await send(fetch, replyUrl(location, reviewId), token, { method: 'PUT', json: { comment: text } });
        return { id: googleReplyId(reviewId) };
      });
    },

    deleteReviewReply(connection, { reviewId }, { tokens }) {
      return withLocation(connection, tokens, async ({ fetch, location, token }) => {
        await send(fetch, replyUrl(location, reviewId), token, { method: 'DELETE' });
      });
    },
  };
}

function toReview(raw: unknown, now: Date): NetworkReview | null {
  // reviewId is the last segment of the review's name; either names it.
  const id = jsonString(raw, 'reviewId') || jsonString(raw, 'name')?.split('/reviews/')[1];
  if (!id) return null;
  const anonymous = jsonAt(raw, 'reviewer', 'isAnonymous') === true;
  const stars = jsonString(raw, 'starRating');
  const reply = jsonAt(raw, 'reviewReply');
  const updated = jsonString(raw, 'updateTime');
  return {
    id,
    // Google names an anonymous reviewer itself ("A Google User"); the fallback is for a review without one.
    authorName: jsonString(raw, 'reviewer', 'displayName') || 'Google user',
    authorAvatarUrl: anonymous ? null : (jsonString(raw, 'reviewer', 'profilePhotoUrl') ?? null),
    rating: (stars ? STARS.get(stars) : undefined) ?? null, // STAR_RATING_UNSPECIFIED: no stars to show
    recommends: null,
    text: jsonString(raw, 'comment') ?? '',
    createdAt: networkDate(jsonString(raw, 'createTime'), now),
    updatedAt: updated ? networkDate(updated, now) : null,
    reply:
      reply && typeof reply === 'object'
        ? { id: googleReplyId(id), text: jsonString(reply, 'comment') ?? '', updatedAt: networkDate(jsonString(reply, 'updateTime'), now) }
        : null,
    permalink: null,
  };
}
