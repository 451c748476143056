// Calls to Meta's Graph APIs (Facebook Pages, Instagram, Threads) and the mapping of their
// error object to the publisher's errors.
//
// Error format and codes: https://developers.facebook.com/docs/graph-api/guides/error-handling
//   { "error": { "message", "type", "code", "error_subcode", "is_transient", "fbtrace_id" } }
//   190 (and 102) = the access token expired or was revoked; 4, 17, 32, 613 = throttled
//   (app, user, page, and per-hour call limits); 1, 2 = temporary downtime.
import { PlatformError, TokenExpiredError, type PublishResult } from './publisher';
import { callApi, isSuccess, jsonAt, pollUntil, type ApiResponse, type Fetcher } from './http';
import { graphId, graphText, nextCursor, pageData } from './graph-comments';
import { matchesIntent, type AttemptIntent, type Reconciled } from './reconcile';

const EXPIRED_CODES = new Set([102, 190]);
/** A 401 with one of these is a throttle, not a dead token. */
const THROTTLED_CODES = new Set([4, 17, 32, 613]);

export type GraphParams = Record<string, string | number | boolean | undefined>;
export type GraphObject = Record<string, unknown>;

export function graphError(response: ApiResponse, platformName: string): PlatformError {
  const error = jsonAt(response.json, 'error') as { message?: unknown; code?: unknown } | undefined;
  const message = typeof error?.message === 'string' && error.message ? error.message : `${platformName} answered HTTP ${response.status}`;
  const code = typeof error?.code === 'number' ? error.code : Number(error?.code);
  if (EXPIRED_CODES.has(code) || (response.status === 401 && !THROTTLED_CODES.has(code))) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface GraphClient {
  get(path: string, params?: GraphParams): Promise<GraphObject>;
  post(path: string, params: GraphParams): Promise<GraphObject>;
  /** Deletes a node (a comment); Graph answers { success: true }. */
  delete(path: string): Promise<GraphObject>;
}

/**
 * A Graph client for one base URL and token. The token travels in the Authorization header
 * (which Graph accepts) so it never lands in a URL that might be logged.
 */
export function graphClient(fetch: Fetcher, baseUrl: string, accessToken: string, platformName: string, timeoutMs?: number): GraphClient {
  const headers = { authorization: `Bearer ${accessToken}` };
  async function send(method: 'GET' | 'POST' | 'DELETE', path: string, params: GraphParams): Promise<GraphObject> {
    const url = new URL(`${baseUrl}/${path.replace(/^\//, '')}`);
    if (method !== 'POST') {
      for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const response = await callApi(fetch, url.toString(), {
      method,
      headers,
      form: method === 'POST' ? params : undefined,
      timeoutMs,
    });
    if (!isSuccess(response) || jsonAt(response.json, 'error') !== undefined) throw graphError(response, platformName);
    return (response.json ?? {}) as GraphObject;
  }
  return {
    get: (path, params = {}) => send('GET', path, params),
    post: (path, params) => send('POST', path, params),
    delete: (path) => send('DELETE', path, {}),
  };
}

/** The id in a Graph answer; a success without one is a broken answer, not a post. */
export function requireId(answer: GraphObject, field: string, platformName: string): string {
  const value = answer[field];
  if (typeof value === 'string' && value) return value;
  if (typeof value === 'number') return String(value);
  throw new PlatformError(`${platformName} accepted the request but returned no ${field}`);
}

/**
 * Where a media container reports its processing (Instagram: status_code, with the reason in
 * status; Threads: status, with the reason in error_message). The values are the same:
 * IN_PROGRESS, FINISHED, PUBLISHED, ERROR, EXPIRED.
 */
export interface ContainerStatusFields {
  status: string;
  /** The platform's reason for ERROR or EXPIRED, passed on verbatim. */
  reason: string;
}

/**
 * Waits until a media container may be published: checked at once, then polled. ERROR and
 * EXPIRED are refusals with the platform's reason. Still processing after the last poll is a
 * refusal that says nothing was published: the container is abandoned, and publishing the
 * post again builds a new one.
 */
export async function waitForContainer(
  graph: GraphClient,
  containerId: string,
  fields: ContainerStatusFields,
  polling: { intervalMs: number; attempts: number },
  platformName: string,
): Promise<void> {
  const check = async (): Promise<true | undefined> => {
    const container = await graph.get(containerId, { fields: `${fields.status},${fields.reason}` });
    const status = container[fields.status];
    if (status === 'FINISHED' || status === 'PUBLISHED') return true;
    if (status === 'ERROR' || status === 'EXPIRED') {
      const reason = container[fields.reason];
      throw new PlatformError(typeof reason === 'string' && reason ? reason : `Media container ${String(status)}`);
    }
    return undefined;
  };
  if (await check()) return;
  if (await pollUntil(polling, check)) return;
  throw new PlatformError(
    `${platformName} was still processing the media after ${Math.round((polling.intervalMs * polling.attempts) / 1000)} s; nothing was published`,
  );
}

// Settling an interrupted publish (reconcile.ts) from the account's own recent posts, shared by
// the Meta reconcilers: Graph lists a Page's feed, an IG user's media and a Threads user's
// threads newest first, with cursor paging (https://developers.facebook.com/docs/graph-api/results).

/** The clock difference matchesIntent allows: a post created up to this long before the attempt began may be it. */
const CLOCK_SLACK_MS = 60_000;
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
export interface RecentPostsWording {
  /** "Instagram" */
  network: string;
  /** What one of the account's posts is called ("media", "post"), and several ("media", "posts"). */
  one: string;
  many: string;
  /** "caption", "message", "text": what was matched. */
  text: string;
}

/**
 * Settles an attempt from the account's recent posts: the one post created since the attempt
 * began with the text it sent is `found`; none, when the read went back past the attempt's
 * start, is `absent`; several, or none in a read that did not go back that far, is `unknown`.
 */
export function settleFromRecentPosts(
  intent: Pick<AttemptIntent, 'content' | 'startedAt'>,
  read: RecentGraphPosts,
  wording: RecentPostsWording,
  result: (post: RecentGraphPost) => PublishResult,
): Reconciled {
  const { network, one, many, text } = wording;
  const matching = read.posts.filter((post) => matchesIntent(intent, { text: post.text, createdAt: post.createdAt }));
  const since = intent.startedAt.toISOString();
  if (matching.length === 1) {
    const [post] = matching as [RecentGraphPost];
    const created = post.createdAt ? `created ${post.createdAt.toISOString()}` : 'with no creation time';
    return {
      outcome: 'found',
      result: result(post),
      evidence: `${network} ${one} ${post.id} (${created}) carries the ${text} sent by the attempt begun ${since}`,
    };
  }
  if (matching.length > 1) {
    return {
      outcome: 'unknown',
      evidence: `${matching.length} ${network} ${many} created since the attempt began (${since}) carry the ${text} sent: ${matching.map((p) => p.id).join(', ')}; a person must tell which is this one`,
    };
  }
  if (read.complete) {
    if (read.posts.length === 0)
      return { outcome: 'absent', evidence: `The account has no ${network} ${many} at all; the attempt begun ${since} created none` };
    const oldest = read.posts.at(-1)?.createdAt?.toISOString() ?? 'the last one listed';
    return {
      outcome: 'absent',
      evidence: `None of the account's ${read.posts.length} most recent ${network} ${many} (read back to ${oldest}) carries the ${text} sent by the attempt begun ${since}`,
    };
  }
  return {
    outcome: 'unknown',
    evidence: `None of the account's ${read.posts.length} most recent ${network} ${many} carries the ${text} sent, but all were created after the attempt began (${since}); older ones were not read`,
  };
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
