// Comments on Meta's Graph APIs (Instagram, Facebook Pages, Threads), shared by their comments
// clients: paging through an edge, a post Graph no longer has, and the { success } answers of
// the moderation calls.
//
// Paging: https://developers.facebook.com/docs/graph-api/results
//   { data: [...], paging: { cursors: { before, after }, next } }; the next page is asked with
//   `after`. "next: … If not included, this is the last page of data. … it is possible that a
//   page may be empty but contain a 'next' paging link. Stop paging when the 'next' link no
//   longer appears." The Threads API documents the same cursors but shows answers without
//   `next`, so its clients follow `after` while pages come back with something in them.
// A missing object: https://developers.facebook.com/docs/graph-api/guides/error-handling
//   code 100, subcode 33: "Unsupported get request. Object with ID '…' does not exist, cannot
//   be loaded due to missing permissions, or does not support this operation."
import { PlatformError, TokenExpiredError } from './publisher';
import type { GraphClient, GraphObject, GraphParams } from './graph-api';
import type { PostComments } from './comments';
import type { PageBudget } from './comment-pages';

/** Objects per page asked of a Graph edge. */
export const GRAPH_PAGE_SIZE = 50;

export interface GraphEdgeRead {
  items: GraphObject[];
  /** False when the page budget ran out before the edge's last page. */
  complete: boolean;
}

/** The objects of one Graph page. */
export function pageData(answer: unknown): GraphObject[] {
  const data = (answer as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data.filter((d): d is GraphObject => d !== null && typeof d === 'object') : [];
}

/**
 * The cursor of the page after `answer`, or null on the last page. `nextLink: 'required'`: the
 * Graph rule, a page without `paging.next` is the last. `'optional'` (Threads): a page that came
 * back with objects and an `after` cursor may have a next page even without `next`.
 */
export function nextCursor(answer: unknown, nextLink: 'required' | 'optional'): string | null {
  const paging = (answer as { paging?: { next?: unknown; cursors?: { after?: unknown } } } | null)?.paging;
  const after = typeof paging?.cursors?.after === 'string' && paging.cursors.after ? paging.cursors.after : null;
  const next = typeof paging?.next === 'string' && paging.next ? paging.next : null;
  if (next) return after ?? new URL(next).searchParams.get('after');
  return nextLink === 'optional' && after && pageData(answer).length > 0 ? after : null;
}

/**
 * Every object of an edge from `first` on (a page already read, such as the replies embedded
 * in a comment), asking `path` for the pages after it within the budget.
 */
export async function readGraphEdge(
  graph: GraphClient,
  path: string,
  params: GraphParams,
  budget: PageBudget,
  options: { nextLink: 'required' | 'optional'; first?: unknown },
): Promise<GraphEdgeRead> {
  const items: GraphObject[] = [];
  let answer: unknown = options.first;
  if (answer === undefined) {
    if (!budget.take()) return { items, complete: false };
    answer = await graph.get(path, params);
  }
  for (;;) {
    items.push(...pageData(answer));
    const after = nextCursor(answer, options.nextLink);
    if (!after) return { items, complete: true };
    if (!budget.take()) return { items, complete: false };
    answer = await graph.get(path, { ...params, after });
  }
}

/** Graph's refusal of an object it does not have (a deleted post), as opposed to a failure of the connection. */
export function isMissingObject(error: unknown): error is PlatformError {
  return error instanceof PlatformError && !(error instanceof TokenExpiredError) && /does not exist/i.test(error.message);
}

/**
 * Reads a post's comments with `read`; a post Graph no longer has is a reason with Graph's own
 * words, every other failure is thrown.
 */
export async function graphPostComments(read: () => Promise<PostComments>): Promise<PostComments> {
  try {
    return await read();
  } catch (error) {
    if (isMissingObject(error)) return { ok: false, reason: error.message };
    throw error;
  }
}

/** A moderation call's answer must say { success: true }; anything else is a refusal. */
export function requireSuccess(answer: GraphObject, what: string, platformName: string): void {
  if (answer.success === true || answer.success === 'true') return;
  throw new PlatformError(`${platformName} did not confirm ${what}`);
}

/** The value as a string id (Graph sends ids as strings, occasionally as numbers). */
export function graphId(value: unknown): string | null {
  if (typeof value === 'string' && value) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** The value when it is a non-empty string. */
export function graphText(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}
