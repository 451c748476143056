// Facebook comments: the comments under the Page's own posts, read, answered, hidden, deleted
// and liked as the Page (externalId = Page id, token = Page access token).
//
// Sources:
//   https://developers.facebook.com/docs/graph-api/reference/object/comments
//     GET /{page-post-id}/comments?filter=stream&order=chronological: every comment, replies
//     included, in one flat list, each reply with its `parent` ("Comments returned in a query
//     are based on default filtering. To get all comments … set the filter parameter to
//     stream"). POST /{object-id}/comments message → { id }: on a post, or under a comment.
//   https://developers.facebook.com/docs/graph-api/reference/comment
//     fields: id, message, created_time, from { id, name }, parent, permalink_url, is_hidden.
//     POST /{comment-id} is_hidden=true|false → { success: true }; DELETE /{comment-id} →
//     { success: true }.
//   https://developers.facebook.com/docs/graph-api/reference/object/likes
//     POST /{object-id}/likes → { success: true } (with a Page access token, as the Page).
//   https://developers.facebook.com/docs/graph-api/results (cursor paging)
// A Facebook comment reports no edit time: an edited text shows as the new text on the next
// read. `from` is left out for people who have not authorized the app's access to their profile.
// Permissions: pages_read_user_content (reading), pages_manage_engagement (acting).
import { apiEndpoint, bestEffort, type AdapterOptions } from '../http';
import { graphClient, requireId, type GraphClient, type GraphObject } from '../graph-api';
import { GRAPH_PAGE_SIZE, graphId, graphPostComments, graphText, readGraphEdge, requireSuccess } from '../graph-comments';
import { PageBudget } from '../comment-pages';
import { networkDate, type CommentsClient, type NetworkComment } from '../comments';
import type { PublishableConnection, TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { FACEBOOK_DEFAULT_BASE_URL } from './facebook-publisher';

const NAME = 'Facebook';
const FIELDS = 'id,message,created_time,from{id,name},parent{id},permalink_url,is_hidden';

export interface FacebookCommentsOptions extends AdapterOptions {
  /** The most pages one read asks for (comment-pages.ts DEFAULT_COMMENT_PAGES). */
  maxPages?: number;
}

export function createFacebookCommentsClient(options: FacebookCommentsOptions = {}): CommentsClient {
  const withGraph = <T>(connection: PublishableConnection, tokens: TokenStore, call: (graph: GraphClient) => Promise<T>) => {
    const { fetch, baseUrl } = apiEndpoint(options, 'FACEBOOK_GRAPH_BASE_URL', FACEBOOK_DEFAULT_BASE_URL);
    return withAccessToken(connection, null, tokens, (token) => call(graphClient(fetch, baseUrl, token, NAME, options.timeoutMs)));
  };

  return {
    source: 'facebook',

    readComments(connection, post, { tokens }) {
      return withGraph(connection, tokens, (graph) =>
        graphPostComments(async () => {
          const read = await readGraphEdge(
            graph,
            `${post.postedId}/comments`,
            { fields: FIELDS, filter: 'stream', order: 'chronological', limit: GRAPH_PAGE_SIZE },
            new PageBudget(options.maxPages),
            { nextLink: 'required' },
          );
          const comments = read.items.map((raw) => toComment(raw, connection, post.publishedAt)).filter((c): c is NetworkComment => c !== null);
          return { ok: true, comments, complete: read.complete };
        }),
      );
    },

    reply(connection, { postedId, commentId }, text, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        const id = requireId(await graph.post(`${commentId ?? postedId}/comments`, { message: text }), 'id', NAME);
        // Posted: a failure to read its address must not invite a second reply.
        const read = await bestEffort('facebook', 'comment permalink', () => graph.get(id, { fields: 'permalink_url' }));
        return { id, permalink: graphText(read?.permalink_url) };
      });
    },

    hide(connection, { commentId }, hidden, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        requireSuccess(await graph.post(commentId, { is_hidden: hidden }), hidden ? 'hiding the comment' : 'showing the comment again', NAME);
      });
    },

    delete(connection, { commentId }, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        requireSuccess(await graph.delete(commentId), 'deleting the comment', NAME);
      });
    },

    like(connection, { commentId }, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        requireSuccess(await graph.post(`${commentId}/likes`, {}), 'liking the comment', NAME);
      });
    },
  };
}

function toComment(raw: GraphObject, connection: PublishableConnection, fallback: Date): NetworkComment | null {
  const id = graphId(raw.id);
  if (!id) return null;
  const from = (raw.from ?? {}) as GraphObject;
  const authorId = graphId(from.id);
  return {
    id,
    parentId: graphId((raw.parent as GraphObject | undefined)?.id),
    authorId,
    authorName: graphText(from.name) ?? 'Facebook user',
    authorHandle: null,
    text: typeof raw.message === 'string' ? raw.message : '',
    createdAt: networkDate(raw.created_time, fallback),
    permalink: graphText(raw.permalink_url),
    hidden: raw.is_hidden === true,
    fromAccount: authorId !== null && authorId === connection.externalId,
  };
}
