// Facebook reviews: the recommendations people left on the Page, read and answered as the Page
// (externalId = Page id, token = Page access token).
//
// Sources:
//   https://developers.facebook.com/docs/graph-api/reference/page/ratings/
//     GET /{page-id}/ratings → { data: [Recommendation], paging } with a Page access token
//     (pages_read_user_content). "Parent Page access tokens cannot be used to get
//     recommendations for child Pages."
//   https://developers.facebook.com/docs/graph-api/reference/recommendation/
//     created_time, recommendation_type (positive | negative), review_text, reviewer (User),
//     open_graph_story: the story the recommendation is published as, which is what an answer
//     comments on. Meta's page marks the node deprecated from v22.0 ("error code 12"): should
//     Graph refuse the edge, the read fails with Graph's words like any other refusal.
//   https://developers.facebook.com/docs/graph-api/changelog/non-versioned-changes/aug-17-2018
//     recommendation_type replaced the 1-to-5 `rating`: no stars here.
//   https://developers.facebook.com/docs/graph-api/reference/object/comments
//     POST /{open-graph-story-id}/comments message → { id }: the Page's answer.
//   https://developers.facebook.com/docs/graph-api/reference/comment
//     POST /{comment-id} message → { success: true } (the answer changed);
//     DELETE /{comment-id} → { success: true }.
//   https://developers.facebook.com/docs/graph-api/results (cursor paging)
// The Page's answer is read with the recommendation, by field expansion of the story's
// top-level comments (the answer is one of them, written by the Page): no request per review.
// A recommendation without a story (Graph leaves it out at times) has no id to answer under: it
// is still listed, under an id of its own making (facebookReviewId), and answering it is refused.
import { apiEndpoint, type AdapterOptions } from '../http';
import { graphClient, requireId, type GraphClient, type GraphObject } from '../graph-api';
import { GRAPH_PAGE_SIZE, graphId, graphText, readGraphEdge, requireSuccess } from '../graph-comments';
import { PageBudget } from '../comment-pages';
import { networkDate } from '../comments';
import type { NetworkReview, ReviewsClient } from '../conversations';
import { PlatformError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { FACEBOOK_DEFAULT_BASE_URL } from './facebook-publisher';

const NAME = 'Facebook';
/** Top-level comments read with each story: the Page's answer is among the first few. */
const STORY_COMMENTS = 25;
export const FACEBOOK_RATINGS_FIELDS = `reviewer{id,name},recommendation_type,review_text,created_time,open_graph_story{id,comments.limit(${STORY_COMMENTS}){id,from{id},message,created_time}}`;
/**
 * Pages one read asks for at most (1,000 recommendations): Graph lists them newest first, so a
 * Page with more loses only its oldest; a runaway cursor stops here too.
 */
export const FACEBOOK_REVIEW_PAGES = 20;
/** How an id of Herald's making starts (a story id is digits and underscores). */
const STORYLESS = 'rating:';

export interface FacebookReviewsOptions extends AdapterOptions {
  /** The most pages one read asks for (FACEBOOK_REVIEW_PAGES). */
  maxPages?: number;
}

/**
 * A recommendation's id: its story's, the thing an answer comments on; without one, the
 * reviewer and the second it was written, so a read and a webhook name it alike.
 */
export function facebookReviewId(storyId: string | null, reviewerId: string | null, createdAt: Date): string {
  return storyId ?? `${STORYLESS}${reviewerId ?? 'unknown'}:${Math.floor(createdAt.getTime() / 1000)}`;
}

export function createFacebookReviewsClient(options: FacebookReviewsOptions = {}): ReviewsClient {
  const withGraph = <T>(connection: PublishableConnection, tokens: TokenStore, call: (graph: GraphClient) => Promise<T>) => {
    const { fetch, baseUrl } = apiEndpoint(options, 'FACEBOOK_GRAPH_BASE_URL', FACEBOOK_DEFAULT_BASE_URL);
    return withAccessToken(connection, null, tokens, (token) => call(graphClient(fetch, baseUrl, token, NAME, options.timeoutMs)));
  };

  return {
    source: 'facebook',

    readReviews(connection, { tokens, now }) {
      return withGraph(connection, tokens, async (graph) => {
        const read = await readGraphEdge(
          graph,
          `${connection.externalId}/ratings`,
          { fields: FACEBOOK_RATINGS_FIELDS, limit: GRAPH_PAGE_SIZE },
          new PageBudget(options.maxPages ?? FACEBOOK_REVIEW_PAGES),
          { nextLink: 'required' },
        );
        const reviews: NetworkReview[] = [];
        const seen = new Set<string>();
        for (const raw of read.items) {
          const review = toReview(raw, connection.externalId, now);
          if (review && !seen.has(review.id)) {
            seen.add(review.id);
            reviews.push(review);
          }
        }
        return reviews;
      });
    },

    async replyToReview(connection, { reviewId, replyId }, text, { tokens }) {
      if (replyId) {
        return withGraph(connection, tokens, async (graph) => {
          requireSuccess(await graph.post(replyId, { message: text }), 'changing the answer', NAME);
          return { id: replyId };
        });
      }
      if (reviewId.startsWith(STORYLESS)) {
        throw new PlatformError('Facebook did not give this recommendation’s story, so there is nothing to answer it under');
      }
      return withGraph(connection, tokens, async (graph) => ({
        id: requireId(await graph.post(`${reviewId}/comments`, { message: text }), 'id', NAME),
      }));
    },

    deleteReviewReply(connection, { replyId }, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        requireSuccess(await graph.delete(replyId), 'deleting the answer', NAME);
      });
    },
  };
}

function toReview(raw: GraphObject, pageId: string, now: Date): NetworkReview | null {
  const story = object(raw.open_graph_story);
  const reviewer = object(raw.reviewer);
  const reviewerId = graphId(reviewer?.id);
  const written = networkDate(raw.created_time, new Date(Number.NaN));
  const dated = !Number.isNaN(written.getTime());
  const createdAt = dated ? written : now;
  const storyId = graphId(story?.id);
  // Without a story, the id is made of the reviewer and the time: without either it would not be stable.
  if (!storyId && (!reviewerId || !dated)) return null;
  const type = raw.recommendation_type;
  return {
    id: facebookReviewId(storyId, reviewerId, createdAt),
    // Graph leaves the reviewer out for people who have not authorized the app's access to their profile.
    authorName: graphText(reviewer?.name) ?? 'Facebook user',
    authorAvatarUrl: null,
    rating: null,
    recommends: type === 'positive' ? true : type === 'negative' ? false : null,
    text: typeof raw.review_text === 'string' ? raw.review_text : '',
    createdAt,
    updatedAt: null,
    reply: pageAnswer(story, pageId, now),
    // Graph gives a recommendation no address of its own.
    permalink: null,
  };
}

/** The Page's latest top-level comment under the story: its answer to the recommendation. */
function pageAnswer(story: GraphObject | null, pageId: string, now: Date): NetworkReview['reply'] {
  const comments = object(story?.comments)?.data;
  let answer: NetworkReview['reply'] = null;
  for (const raw of Array.isArray(comments) ? comments : []) {
    const comment = object(raw);
    const id = graphId(comment?.id);
    if (!comment || !id || graphId(object(comment.from)?.id) !== pageId) continue;
    const updatedAt = networkDate(comment.created_time, now);
    if (!answer || updatedAt >= answer.updatedAt) answer = { id, text: typeof comment.message === 'string' ? comment.message : '', updatedAt };
  }
  return answer;
}

function object(value: unknown): GraphObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as GraphObject) : null;
}
