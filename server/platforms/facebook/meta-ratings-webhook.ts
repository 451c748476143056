// Meta's Page webhook for recommendations (object `page`, field `ratings`), read into the same
// reviews the Facebook reviews client reads, so the inbox keeps one row whichever comes first.
//
// Source: https://developers.facebook.com/docs/graph-api/webhooks/reference/page/#ratings
//   { object: 'page', entry: [{ id: <page id>, time, changes: [{ field: 'ratings', value: {
//     reviewer_id, reviewer_name, rating?, recommendation_type, review_text,
//     open_graph_story_id, created_time, verb: add | edit | remove, item: rating | comment,
//     comment_id? } }] }] }
// Only a recommendation written or changed becomes a review here. A removed one is left to the
// next read (the inbox settles what a read no longer lists), and a comment under a
// recommendation's story (item `comment`, the Page's answer among them) is read with the
// recommendation itself. A push carries no answer: `reply` is null as in "not told", and the
// inbox keeps the answer it knows. The payload is checked for Meta's signature before it comes
// here (network-webhook-signatures.ts); this reads it, and anything it does not recognise is
// left out, never thrown.
import { networkDate } from '../comments';
import type { NetworkReview, PushedItems } from '../conversations';
import { facebookReviewId } from './facebook-reviews';

const INVALID = new Date(Number.NaN);

export function parseMetaRatings(body: unknown): PushedItems[] {
  if (!isObject(body) || body.object !== 'page' || !Array.isArray(body.entry)) return [];
  const out: PushedItems[] = [];
  for (const entry of body.entry) {
    if (!isObject(entry) || !Array.isArray(entry.changes)) continue;
    const pageId = idOf(entry.id);
    if (!pageId) continue;
    const changedAt = dateOf(entry.time);
    const reviews: NetworkReview[] = [];
    for (const change of entry.changes) {
      if (!isObject(change) || change.field !== 'ratings' || !isObject(change.value)) continue;
      const review = toReview(change.value, changedAt);
      if (review && !reviews.some((r) => r.id === review.id)) reviews.push(review);
    }
    if (reviews.length > 0) out.push({ accountId: pageId, platforms: ['facebook'], messages: [], reviews });
  }
  return out;
}

function toReview(value: Record<string, unknown>, changedAt: Date | null): NetworkReview | null {
  // A ratings change without `item` is the recommendation itself.
  if (value.item !== undefined && value.item !== 'rating') return null;
  if (value.verb !== 'add' && value.verb !== 'edit') return null;
  const storyId = idOf(value.open_graph_story_id);
  // A story id that is not one is not a storyless recommendation: the read would name it otherwise.
  if (!storyId && value.open_graph_story_id !== undefined && value.open_graph_story_id !== null) return null;
  const reviewerId = idOf(value.reviewer_id);
  const written = dateOf(value.created_time);
  // Without a story, the id is made of the reviewer and the time the read gives too.
  if (!storyId && (!reviewerId || !written)) return null;
  const createdAt = written ?? changedAt;
  if (!createdAt) return null;
  const type = value.recommendation_type;
  return {
    id: facebookReviewId(storyId, reviewerId, createdAt),
    authorName: text(value.reviewer_name) || reviewerId || 'Facebook user',
    authorAvatarUrl: null,
    rating: null,
    recommends: type === 'positive' ? true : type === 'negative' ? false : null,
    text: text(value.review_text),
    createdAt,
    updatedAt: value.verb === 'edit' ? changedAt : null,
    reply: null,
    permalink: null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An id Meta sends as a string or a number. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string' && /^[0-9A-Za-z_.:-]{1,128}$/.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  return null;
}

/** Meta's times (seconds, or ISO text); null for anything that is not a date. */
function dateOf(value: unknown): Date | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const date = networkDate(value, INVALID);
  return Number.isNaN(date.getTime()) ? null : date;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
