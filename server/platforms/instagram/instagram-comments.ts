// Instagram comments: the comments under the account's own media, read, answered, hidden and
// deleted through the Instagram Graph API, in either flavour (instagram-api.ts; the same calls
// on graph.facebook.com and graph.instagram.com; the connection's externalId is the IG
// professional account id, its accountName the username).
//
// Sources:
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments
//     GET /{ig-media-id}/comments?fields=… → { data: [IG Comment], paging }: the top-level
//     comments; their replies come with the `replies` field (its later pages through
//     GET /{ig-comment-id}/replies).
//     POST /{ig-media-id}/comments?message= → { id }: a comment on the media itself.
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies
//     POST /{ig-comment-id}/replies?message= → { id }. "You can only reply to top-level
//     comments; replies to a reply will be added to the top-level comment." "You cannot reply
//     to hidden comments."
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment
//     fields: from { id, username }, hidden, id, like_count, parent_id, replies, text,
//     timestamp, username. POST /{ig-comment-id}?hide=true|false → { success: true };
//     DELETE /{ig-comment-id} → { success: true }.
//   https://developers.facebook.com/docs/graph-api/results (cursor paging)
// An Instagram comment has no address of its own and no edit time: an edited text shows as
// the new text on the next read. The API offers no way to like a comment.
// Permission: instagram_manage_comments (with instagram_basic and pages_read_engagement) through
// Facebook Login; instagram_business_manage_comments through Instagram Login
// (https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/comment-moderation).
import { type AdapterOptions } from '../http';
import { graphClient, requireId, type GraphClient, type GraphObject } from '../graph-api';
import { GRAPH_PAGE_SIZE, graphId, graphPostComments, graphText, isMissingObject, readGraphEdge, requireSuccess } from '../graph-comments';
import { PageBudget } from '../comment-pages';
import { networkDate, type CommentsClient, type NetworkComment } from '../comments';
import type { PublishableConnection, TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { INSTAGRAM_FACEBOOK_LOGIN, instagramEndpoint, type InstagramApi } from './instagram-api';

const COMMENT_FIELDS = 'id,text,timestamp,username,from{id,username},hidden,parent_id';
const FIELDS = `${COMMENT_FIELDS},replies.limit(${GRAPH_PAGE_SIZE}){${COMMENT_FIELDS}}`;

export interface InstagramCommentsOptions extends AdapterOptions {
  /** The most pages one read asks for (comment-pages.ts DEFAULT_COMMENT_PAGES). */
  maxPages?: number;
}

export function createInstagramCommentsClient(options: InstagramCommentsOptions = {}, flavour: InstagramApi = INSTAGRAM_FACEBOOK_LOGIN): CommentsClient {
  const NAME = flavour.name;
  const withGraph = <T>(connection: PublishableConnection, tokens: TokenStore, call: (graph: GraphClient) => Promise<T>) => {
    const { fetch, baseUrl, refresher } = instagramEndpoint(options, flavour);
    return withAccessToken(connection, refresher, tokens, (token) => call(graphClient(fetch, baseUrl, token, NAME, options.timeoutMs)));
  };

  return {
    source: flavour.platform,

    readComments(connection, post, { tokens }) {
      return withGraph(connection, tokens, (graph) =>
        graphPostComments(async () => {
          const budget = new PageBudget(options.maxPages);
          const top = await readGraphEdge(graph, `${post.postedId}/comments`, { fields: FIELDS, limit: GRAPH_PAGE_SIZE }, budget, {
            nextLink: 'required',
          });
          let complete = top.complete;
          const comments: NetworkComment[] = [];
          for (const raw of top.items) {
            const comment = toComment(raw, null, connection, post.publishedAt);
            if (!comment) continue;
            comments.push(comment);
            if (raw.replies === undefined) continue;
            const replies = await readReplies(graph, comment.id, raw.replies, budget);
            complete &&= replies.complete;
            for (const reply of replies.items) {
              const mapped = toComment(reply, comment.id, connection, post.publishedAt);
              if (mapped) comments.push(mapped);
            }
          }
          return { ok: true, comments, complete };
        }),
      );
    },

    reply(connection, { postedId, commentId }, text, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        const answer = commentId ? await graph.post(`${commentId}/replies`, { message: text }) : await graph.post(`${postedId}/comments`, { message: text });
        return { id: requireId(answer, 'id', NAME), permalink: null };
      });
    },

    hide(connection, { commentId }, hidden, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        requireSuccess(await graph.post(commentId, { hide: hidden }), hidden ? 'hiding the comment' : 'showing the comment again', NAME);
      });
    },

    delete(connection, { commentId }, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        requireSuccess(await graph.delete(commentId), 'deleting the comment', NAME);
      });
    },
  };
}

/** A comment's replies: the page embedded in it, then the later pages of its replies edge. */
async function readReplies(graph: GraphClient, commentId: string, embedded: unknown, budget: PageBudget) {
  try {
    return await readGraphEdge(graph, `${commentId}/replies`, { fields: COMMENT_FIELDS, limit: GRAPH_PAGE_SIZE }, budget, {
      nextLink: 'required',
      first: embedded,
    });
  } catch (error) {
    // Deleted while being read: its replies went with it.
    if (isMissingObject(error)) return { items: [], complete: true };
    throw error;
  }
}

function toComment(raw: GraphObject, parentId: string | null, connection: PublishableConnection, fallback: Date): NetworkComment | null {
  const id = graphId(raw.id);
  if (!id) return null;
  const from = (raw.from ?? {}) as GraphObject;
  const username = graphText(raw.username) ?? graphText(from.username);
  const authorId = graphId(from.id);
  return {
    id,
    parentId: graphId(raw.parent_id) ?? parentId,
    authorId,
    authorName: username ?? 'Instagram user',
    authorHandle: username ? `@${username}` : null,
    text: typeof raw.text === 'string' ? raw.text : '',
    createdAt: networkDate(raw.timestamp, fallback),
    permalink: null,
    hidden: raw.hidden === true,
    fromAccount: authorId === connection.externalId || (username !== null && sameUsername(username, connection.accountName)),
  };
}

function sameUsername(a: string, b: string): boolean {
  const bare = (s: string) => s.replace(/^@/, '').toLowerCase();
  return bare(a) === bare(b);
}
