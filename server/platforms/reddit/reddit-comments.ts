// Reddit comments: the comment tree under the account's own posts, read with the OAuth API, and
// the reply, hide (moderator removal) and like (upvote) the catalogue offers.
//
// Sources:
//   https://www.reddit.com/dev/api/#GET_comments_{article} GET /comments/<article id36>?limit=&comment=
//     → [Listing of the t3 post, Listing of t1 comments]; each comment's replies is a Listing (or "");
//     a `more` child stands for comments left out: children (id36s) to ask /api/morechildren for,
//     or none (count 0, id "_") where the thread continues on the page of its parent comment
//     (comment=<parent id36>). Scope read.
//   https://www.reddit.com/dev/api/#GET_api_morechildren GET /api/morechildren?api_type=json
//     &link_id=t3_…&children=<id36,…> (at most 100, one request at a time) → { json: { errors,
//     data: { things: [t1 | more] } } }, flat, each with its parent_id
//   https://github.com/reddit-archive/reddit/wiki/JSON (t1: name, parent_id, author, author_fullname,
//     body, created_utc, edited (false or when, in seconds), permalink; removed and spam shown to
//     moderators; a deleted comment still holding replies is author and body "[deleted]", a removed
//     one body "[removed]")
//   https://www.reddit.com/dev/api/#POST_api_comment POST /api/comment api_type=json, thing_id, text
//     → { json: { errors, data: { things: [{ kind: "t1", data }] } } } (scope submit)
//   https://www.reddit.com/dev/api/#POST_api_remove POST /api/remove id, spam=false; …#POST_api_approve
//     POST /api/approve id (scope modposts; the account must moderate the subreddit)
//   https://www.reddit.com/dev/api/#POST_api_vote POST /api/vote id, dir=1 (scope vote)
//   https://github.com/reddit-archive/reddit/wiki/API (rate limits: X-Ratelimit-Reset)
//
// Comment ids are fullnames (t1_…), as every action takes them; parentId is the parent_id, null for
// the post (t3_…). A deleted or removed comment is left out (its replies keep their parentId), so
// the collector takes it as deleted. Comments left out of the first answer are fetched, up to
// MAX_EXTRA_REQUESTS more requests; beyond that the list is incomplete. The account is
// recognised by its fullname (externalId t2_…) or its username (platformData.username).
import { apiEndpoint } from '../http';
import { networkDate, type CommentsClient, type NetworkComment } from '../comments';
import { PlatformError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { REDDIT_DEFAULT_BASE_URL, redditClient, type RedditClient } from './reddit-api';
import { redditRefresher, type RedditOptions } from './reddit-publisher';

const FULLNAME = /^t3_[a-z0-9]+$/i;
const MORE_CHILDREN_BATCH = 100;
/** Requests one read may add for comments the first answer left out. */
const MAX_EXTRA_REQUESTS = 25;
const PLACEHOLDER_BODIES = new Set(['[deleted]', '[removed]']);

interface Thing {
  kind?: string;
  data?: CommentData & MoreData;
}

interface CommentData {
  id?: string;
  name?: string;
  parent_id?: string;
  author?: string;
  author_fullname?: string;
  body?: string;
  created_utc?: number;
  edited?: boolean | number;
  permalink?: string;
  removed?: boolean;
  spam?: boolean;
  replies?: { data?: { children?: Thing[] } } | '';
  removed_by_category?: string | null;
}

interface MoreData {
  children?: string[];
}

type Listing = { data?: { children?: Thing[] } };

export function createRedditCommentsClient(options: RedditOptions = {}): CommentsClient {
  const session = <T>(connection: PublishableConnection, tokens: TokenStore, call: (api: RedditClient) => Promise<T>): Promise<T> => {
    const { fetch, baseUrl } = apiEndpoint(options, 'REDDIT_API_BASE_URL', REDDIT_DEFAULT_BASE_URL);
    return withAccessToken(connection, redditRefresher(fetch, options), tokens, (token) => call(redditClient(fetch, baseUrl, token, options.timeoutMs)));
  };

  return {
    source: 'reddit',

    readComments: async (connection, post, { tokens, now }) => {
      if (!FULLNAME.test(post.postedId)) {
        return { ok: false, reason: 'Reddit gave no post id for this image submission, so Herald cannot read its comments' };
      }
      const article = post.postedId.slice(3);
      return session(connection, tokens, async (api) => {
        let answer: unknown;
        try {
          answer = (await api.get(`/comments/${encodeURIComponent(article)}?limit=500&raw_json=1`)).json;
        } catch (error) {
          // Not there any more (404), or in a subreddit the account may no longer see (403).
          if (error instanceof PlatformError && (error.opts.status === 404 || error.opts.status === 403)) return { ok: false, reason: error.message };
          throw error;
        }
        const [postListing, commentListing] = Array.isArray(answer) ? (answer as Listing[]) : [];
        const removed = postListing?.data?.children?.[0]?.data?.removed_by_category;
        if (removed) return { ok: false, reason: `Reddit reports this post removed (removed_by_category: ${removed})` };

        const tree = new Tree(connection, now);
        tree.add(commentListing?.data?.children ?? []);
        let budget = MAX_EXTRA_REQUESTS;
        while (tree.pending.length || tree.continued.length) {
          if (budget-- <= 0) {
            tree.complete = false;
            break;
          }
          if (tree.pending.length) {
            const batch = tree.pending.splice(0, MORE_CHILDREN_BATCH);
            const more = await api.get(
              `/api/morechildren?api_type=json&raw_json=1&link_id=${post.postedId}&children=${batch.map(encodeURIComponent).join(',')}`,
            );
            tree.add((more.json as { json?: { data?: { things?: Thing[] } } } | null)?.json?.data?.things ?? []);
          } else {
            const parent = tree.continued.shift()!;
            const page = (
              await api.get(`/comments/${encodeURIComponent(article)}?comment=${encodeURIComponent(parent.replace(/^t1_/, ''))}&limit=500&raw_json=1`)
            ).json;
            const focal = (Array.isArray(page) ? (page as Listing[])[1]?.data?.children : undefined) ?? [];
            tree.add(focal); // the parent again (already listed) and the replies below it
          }
        }
        return { ok: true, comments: tree.comments, complete: tree.complete };
      });
    },

    reply: (connection, target, text, { tokens }) =>
      session(connection, tokens, async (api) => {
        const answer = await api.post('/api/comment', { api_type: 'json', thing_id: target.commentId ?? target.postedId, text });
        const things = (answer.json as { json?: { data?: { things?: Thing[] } } } | null)?.json?.data?.things ?? [];
        const created = things.find((t) => t.kind === 't1')?.data;
        if (!created?.name) throw new PlatformError('Reddit accepted the reply but returned no comment');
        return { id: created.name, permalink: created.permalink ? `https://www.reddit.com${created.permalink}` : null };
      }),

    hide: (connection, { commentId }, hidden, { tokens }) =>
      session(connection, tokens, async (api) => {
        // A moderator removes a comment from the public, and approves it to show it again.
        if (hidden) await api.post('/api/remove', { id: commentId, spam: false });
        else await api.post('/api/approve', { id: commentId });
      }),

    like: (connection, { commentId }, { tokens }) =>
      session(connection, tokens, async (api) => {
        await api.post('/api/vote', { id: commentId, dir: 1 });
      }),
  };
}

/** The comments of one post as they arrive, flattened, and what is still to fetch. */
class Tree {
  readonly comments: NetworkComment[] = [];
  /** id36s of comments a `more` stands for. */
  readonly pending: string[] = [];
  /** Fullnames of comments whose replies continue on their own page. */
  readonly continued: string[] = [];
  complete = true;
  private readonly seen = new Set<string>();
  private readonly accountId: string;
  private readonly username: string | null;

  constructor(
    connection: PublishableConnection,
    private readonly now: Date,
  ) {
    this.accountId = connection.externalId;
    const stored = connection.platformData?.username;
    this.username = typeof stored === 'string' && stored ? stored : connection.accountName.replace(/^u\//, '') || null;
  }

  add(things: Thing[]): void {
    for (const thing of things) {
      const data = thing.data;
      if (!data) continue;
      if (thing.kind === 'more') {
        if (data.children?.length) this.pending.push(...data.children.filter((id) => !this.seen.has(`t1_${id}`)));
        else if (data.parent_id?.startsWith('t1_')) this.continued.push(data.parent_id); // "continue this thread"
        continue;
      }
      if (thing.kind !== 't1' || !data.name) continue;
      if (!this.seen.has(data.name)) {
        this.seen.add(data.name);
        if (!isPlaceholder(data)) this.comments.push(this.commentOf(data));
      }
      if (data.replies && typeof data.replies === 'object') this.add(data.replies.data?.children ?? []);
    }
  }

  private commentOf(data: CommentData): NetworkComment {
    const author = data.author ?? '';
    return {
      id: data.name!,
      parentId: data.parent_id && data.parent_id.startsWith('t1_') ? data.parent_id : null,
      authorId: data.author_fullname ?? null,
      authorName: author || 'Reddit user',
      authorHandle: author ? `u/${author}` : null,
      text: data.body ?? '',
      createdAt: networkDate(data.created_utc, this.now),
      editedAt: typeof data.edited === 'number' ? networkDate(data.edited, this.now) : null,
      permalink: data.permalink ? `https://www.reddit.com${data.permalink}` : null,
      // Reddit tells a subreddit's moderators whether a comment is removed; others are not told.
      ...(typeof data.removed === 'boolean' ? { hidden: data.removed || data.spam === true } : {}),
      fromAccount: (Boolean(data.author_fullname) && data.author_fullname === this.accountId) || (this.username !== null && author === this.username),
    };
  }
}

/** A comment deleted by its author or removed, kept only as the parent of its replies. */
function isPlaceholder(data: CommentData): boolean {
  return data.author === '[deleted]' && PLACEHOLDER_BODIES.has(data.body ?? '');
}
