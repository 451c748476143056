// Settling an interrupted publish to a Meta network (reconcile.ts): the account's recent posts
// on a Graph edge and a container's status, shared by the Instagram, Facebook and Threads
// reconcilers.
import type { PublishResult } from './publisher';
import { graphId, graphText, nextCursor, pageData } from './graph-comments';
import { CLOCK_SLACK_MS, matchesIntent, settleFromRecentPosts, type AttemptIntent, type Reconciled } from './reconcile';
import type { ContainerStatusFields, GraphClient, GraphParams } from './graph-api';

// Settling an interrupted publish (reconcile.ts) from the account's own recent posts, shared by
// the Meta reconcilers: Graph lists a Page's feed, an IG user's media and a Threads user's
// threads newest first, with cursor paging (https://developers.facebook.com/docs/graph-api/results).

/** Graph may answer an empty page with a next link: the pages one read follows at most. */
const RECENT_POSTS_PAGES = 5;

/** One of the account's recent posts, as a reconciler compares it with what the attempt sent. */
export interface RecentGraphPost {
  id: string;
  text: string | null;
  createdAt: Date | null;
  permalink: string | null;
}

export interface RecentGraphPosts {
  posts: RecentGraphPost[];
  /** Nothing the attempt could have created was left unread: the read went back past its start, or the edge ended. */
  complete: boolean;
}

/** Which fields of an edge's objects hold the text, the creation time and the address. */
export interface RecentPostFields {
  text: string;
  time: string;
  permalink: string;
}

/**
 * The account's most recent posts on a Graph edge, page after page, until `max` were read, one
 * created before the attempt's window came back, or the edge ended. `nextLink` as in
 * graph-comments.ts nextCursor (Threads pages may come without `next`).
 */
export async function readRecentGraphPosts(
  graph: GraphClient,
  path: string,
  fields: RecentPostFields,
  since: Date,
  options: { max: number; nextLink: 'required' | 'optional' },
): Promise<RecentGraphPosts> {
  const windowStart = since.getTime() - CLOCK_SLACK_MS;
  const posts: RecentGraphPost[] = [];
  const params: GraphParams = { fields: `id,${fields.text},${fields.time},${fields.permalink}` };
  let after: string | null = null;
  for (let page = 1; ; page++) {
    const answer = await graph.get(path, { ...params, limit: options.max - posts.length, after: after ?? undefined });
    for (const raw of pageData(answer)) {
      const id = graphId(raw.id);
      if (!id) continue;
      const time = raw[fields.time];
      const createdAt = typeof time === 'string' && !Number.isNaN(Date.parse(time)) ? new Date(time) : null;
      posts.push({ id, text: graphText(raw[fields.text]), createdAt, permalink: graphText(raw[fields.permalink]) });
    }
    if (posts.some((p) => p.createdAt !== null && p.createdAt.getTime() < windowStart)) return { posts, complete: true };
    after = nextCursor(answer, options.nextLink);
    if (!after) return { posts, complete: true };
    if (posts.length >= options.max || page >= RECENT_POSTS_PAGES) return { posts, complete: false };
  }
}

/** How a reconciler names what it read, in its evidence. */
export interface GraphPostsWording {
  /** "Instagram" */
  network: string;
  /** What one of the account's posts is called ("media", "post"), and several ("media", "posts"). */
  one: string;
  many: string;
  /** "caption", "message", "text": what was matched. */
  text: string;
}

/** Settles an attempt from the account's recent posts on a Graph edge (reconcile.ts settleFromRecentPosts). */
export function settleFromGraphPosts(
  intent: Pick<AttemptIntent, 'content' | 'startedAt'>,
  read: RecentGraphPosts,
  wording: GraphPostsWording,
  result: (post: RecentGraphPost) => PublishResult,
): Reconciled {
  const { network, one, many, text } = wording;
  return settleFromRecentPosts({
    intent,
    posts: read.posts,
    matching: read.posts.filter((post) => matchesIntent(intent, { text: post.text, createdAt: post.createdAt })),
    listEnded: read.complete,
    idOf: (post) => post.id,
    found: (post, since) => ({
      result: result(post),
      evidence: `${network} ${one} ${post.id} (${post.createdAt ? `created ${post.createdAt.toISOString()}` : 'with no creation time'}) carries the ${text} sent by the attempt begun ${since}`,
    }),
    wording: { kind: `${network} ${many}`, items: (n) => `the account's ${n} ${network} ${many}`, sent: text },
  });
}

/** Graph's status of a media container Herald recorded, as a reconciler reads it. */
export async function readContainerStatus(
  graph: GraphClient,
  containerId: string,
  fields: ContainerStatusFields,
): Promise<{ status: string | null; reason: string | null }> {
  const container = await graph.get(containerId, { fields: `${fields.status},${fields.reason}` });
  return { status: graphText(container[fields.status]), reason: graphText(container[fields.reason]) };
}
