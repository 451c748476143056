// Threads comments: the replies under the account's own threads, read, answered and hidden
// through the Threads API (externalId = the Threads user id, accountName = @username).
//
// Sources:
//   https://developers.facebook.com/documentation/threads/reference/reply-management
//     GET /{threads-media-id}/conversation: "a paginated and flattened list of all top-level
//     and nested replies"; fields id, text, username, permalink, timestamp, replied_to,
//     is_reply_owned_by_me, hide_status, profile_picture_url …; reverse=true|false; `before`
//     and `after` cursors.
//   https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/replies-and-conversations
//     username and permalink "only work for public users and your own user".
//   https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/create-replies
//     POST /{threads-user-id}/threads media_type=TEXT, text, reply_to_id → { id } (a container),
//     then POST /{threads-user-id}/threads_publish creation_id → { id } (the reply).
//   https://developers.facebook.com/documentation/threads/reply-management
//     POST /{threads-reply-id}/manage_reply hide=true|false → { success: true }: top-level
//     replies only, their nested replies hidden with them.
//   https://developers.facebook.com/docs/threads/posts (text: 500 characters, as any Threads post)
// Threads reports no edit time: an edited text shows as the new text on the next read. Only
// hide_status HIDDEN is the account's own hiding (COVERED, BLOCKED and RESTRICTED are Threads'
// filters). Permissions: threads_read_replies (reading), threads_manage_replies (answering, hiding).
import { apiEndpoint, bestEffort, pollSettings, type AdapterOptions } from '../http';
import { graphClient, requireId, waitForContainer, type ContainerStatusFields, type GraphClient, type GraphObject } from '../graph-api';
import { graphId, graphPostComments, graphText, readGraphEdge, requireSuccess } from '../graph-comments';
import { PageBudget } from '../comment-pages';
import { networkDate, type CommentsClient, type NetworkComment } from '../comments';
import type { PublishableConnection, TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { threadsRefresher, THREADS_DEFAULT_BASE_URL } from './threads-publisher';

const NAME = 'Threads';
const FIELDS = 'id,text,username,permalink,timestamp,replied_to,is_reply_owned_by_me,hide_status,profile_picture_url';
const CONTAINER_STATUS: ContainerStatusFields = { status: 'status', reason: 'error_message' };

export interface ThreadsCommentsOptions extends AdapterOptions {
  /** The most pages one read asks for (comment-pages.ts DEFAULT_COMMENT_PAGES). */
  maxPages?: number;
}

export function createThreadsCommentsClient(options: ThreadsCommentsOptions = {}): CommentsClient {
  const withGraph = <T>(connection: PublishableConnection, tokens: TokenStore, call: (graph: GraphClient) => Promise<T>) => {
    const { fetch, baseUrl } = apiEndpoint(options, 'THREADS_API_BASE_URL', THREADS_DEFAULT_BASE_URL);
    return withAccessToken(connection, threadsRefresher(fetch, baseUrl), tokens, (token) => call(graphClient(fetch, baseUrl, token, NAME, options.timeoutMs)));
  };

  return {
    source: 'threads',

    readComments(connection, post, { tokens }) {
      return withGraph(connection, tokens, (graph) =>
        graphPostComments(async () => {
          const read = await readGraphEdge(graph, `${post.postedId}/conversation`, { fields: FIELDS, reverse: false }, new PageBudget(options.maxPages), {
            nextLink: 'optional',
          });
          const comments = read.items.map((raw) => toComment(raw, post.postedId, connection, post.publishedAt)).filter((c): c is NetworkComment => c !== null);
          return { ok: true, comments, complete: read.complete };
        }),
      );
    },

    reply(connection, { postedId, commentId }, text, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        const user = connection.externalId;
        const container = requireId(await graph.post(`${user}/threads`, { media_type: 'TEXT', text, reply_to_id: commentId ?? postedId }), 'id', NAME);
        await waitForContainer(graph, container, CONTAINER_STATUS, pollSettings(options), NAME);
        const id = requireId(await graph.post(`${user}/threads_publish`, { creation_id: container }), 'id', NAME);
        // Published: a failure to read its address must not invite a second reply.
        const read = await bestEffort('threads', 'reply permalink', () => graph.get(id, { fields: 'permalink' }));
        return { id, permalink: graphText(read?.permalink) };
      });
    },

    hide(connection, { commentId }, hidden, { tokens }) {
      return withGraph(connection, tokens, async (graph) => {
        requireSuccess(await graph.post(`${commentId}/manage_reply`, { hide: hidden }), hidden ? 'hiding the reply' : 'showing the reply again', NAME);
      });
    },
  };
}

function toComment(raw: GraphObject, postedId: string, connection: PublishableConnection, fallback: Date): NetworkComment | null {
  const id = graphId(raw.id);
  if (!id) return null;
  const repliedTo = graphId((raw.replied_to as GraphObject | undefined)?.id);
  const username = graphText(raw.username);
  return {
    id,
    parentId: repliedTo && repliedTo !== postedId ? repliedTo : null,
    // Threads names a reply's author by username only.
    authorId: null,
    authorName: username ?? 'Threads user',
    authorHandle: username ? `@${username}` : null,
    authorAvatarUrl: graphText(raw.profile_picture_url),
    text: typeof raw.text === 'string' ? raw.text : '',
    createdAt: networkDate(raw.timestamp, fallback),
    permalink: graphText(raw.permalink),
    hidden: raw.hide_status === 'HIDDEN',
    fromAccount: raw.is_reply_owned_by_me === true || (username !== null && username.toLowerCase() === connection.accountName.replace(/^@/, '').toLowerCase()),
  };
}
