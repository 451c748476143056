// X comments: the replies in the conversation the account's post started, found with recent
// search, and the reply, hide and like the catalogue offers.
//
// Sources:
//   https://docs.x.com/x-api/posts/search/introduction, https://docs.x.com/x-api/posts/search-posts-recent
//     GET /2/tweets/search/recent?query=conversation_id:<id>&max_results=100&next_token=…
//     → { data: [Post], includes: { users: [User], tweets: [Post] }, meta: { result_count, next_token? } }
//     Posts of the last seven days only, newest first; next_token until the last page.
//   https://docs.x.com/x-api/fundamentals/conversation-id (every reply in the thread shares the
//     post's conversation_id; referenced_tweets [{ type: "replied_to", id }] names the parent)
//   https://docs.x.com/x-api/fundamentals/expansions (author_id → includes.users: name, username,
//     profile_image_url)
//   https://docs.x.com/x-api/fundamentals/edit-posts (each edit is a new post id; edit_history_tweet_ids
//     oldest first; the API returns the latest version; the edit_history_tweet_ids expansion brings
//     the earlier versions into includes.tweets)
//   https://docs.x.com/x-api/posts/lookup/introduction GET /2/tweets/:id (whether the post is still
//     there: a deleted one is answered with errors [{ title: "Not Found Error", detail }])
//   https://docs.x.com/x-api/posts/manage-tweets/introduction POST /2/tweets { text, reply: { in_reply_to_tweet_id } }
//   https://docs.x.com/x-api/posts/hide-replies/introduction PUT /2/tweets/:id/hidden { hidden } →
//     { data: { hidden } } (scope tweet.moderate.write; replies in the account's own conversations)
//   https://docs.x.com/x-api/posts/likes/introduction POST /2/users/:id/likes { tweet_id } →
//     { data: { liked } } (scope like.write; :id is the account's own user id, connection.externalId)
//   https://docs.x.com/fundamentals/rate-limits (429 with x-rate-limit-reset)
//
// A comment's id is its first version's id, so an edit keeps it the same comment (with editedAt,
// the latest text and the latest version's permalink); a reply to any version names that first id
// as its parent. A post published more than seven days ago has replies recent search no longer
// finds: its list is never complete. X reports no hidden flag in search results.
import { apiEndpoint, jsonString } from '../http';
import { networkDate, type CommentsClient, type NetworkComment } from '../comments';
import { PlatformError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { xRefresher, type TwitterOptions } from './twitter-publisher';
import { X_DEFAULT_BASE_URL, xClient, xRetryAfter, type XClient } from './x-api';

/** How far back recent search reaches. */
const SEARCH_WINDOW_MS = 7 * 86_400_000;
const TWEET_FIELDS = 'author_id,created_at,conversation_id,in_reply_to_user_id,referenced_tweets,edit_history_tweet_ids';

interface XPost {
  id?: string;
  text?: string;
  author_id?: string;
  created_at?: string;
  referenced_tweets?: { type?: string; id?: string }[];
  edit_history_tweet_ids?: string[];
}

interface XUser {
  id?: string;
  name?: string;
  username?: string;
  profile_image_url?: string;
}

interface SearchPage {
  data?: XPost[];
  includes?: { users?: XUser[]; tweets?: XPost[] };
  meta?: { next_token?: string };
}

export function createTwitterCommentsClient(options: TwitterOptions = {}): CommentsClient {
  const session = <T>(connection: PublishableConnection, tokens: TokenStore, call: (api: XClient) => Promise<T>): Promise<T> => {
    const { fetch, baseUrl } = apiEndpoint(options, 'X_API_BASE_URL', X_DEFAULT_BASE_URL);
    return withAccessToken(connection, xRefresher(fetch, baseUrl, options), tokens, (token) => call(xClient(fetch, baseUrl, token, options.timeoutMs)));
  };

  return {
    source: 'twitter',

    readComments: (connection, post, { tokens, now }) =>
      session(connection, tokens, async (api) => {
        const id = post.postedId;
        const lookup = (await api.call(`/2/tweets/${encodeURIComponent(id)}`, { retryAfter: xRetryAfter })).json as {
          data?: XPost;
          errors?: { detail?: string; title?: string }[];
        } | null;
        if (!lookup?.data)
          return { ok: false, reason: lookup?.errors?.[0]?.detail ?? lookup?.errors?.[0]?.title ?? 'X did not return this post (deleted or protected)' };

        const posts: XPost[] = [];
        const versions: XPost[] = [];
        const users = new Map<string, XUser>();
        let nextToken: string | undefined;
        do {
          const query = new URLSearchParams({
            query: `conversation_id:${id}`,
            max_results: '100',
            'tweet.fields': TWEET_FIELDS,
            expansions: 'author_id,edit_history_tweet_ids',
            'user.fields': 'name,username,profile_image_url',
            ...(nextToken ? { next_token: nextToken } : {}),
          });
          const page = (await api.call(`/2/tweets/search/recent?${query}`, { retryAfter: xRetryAfter })).json as SearchPage | null;
          posts.push(...(page?.data ?? []));
          versions.push(...(page?.includes?.tweets ?? []));
          for (const user of page?.includes?.users ?? []) if (user.id) users.set(user.id, user);
          nextToken = page?.meta?.next_token;
        } while (nextToken);

        const comments = commentsOf(id, posts, versions, users, connection.externalId, now);
        return { ok: true, comments, complete: now.getTime() - post.publishedAt.getTime() <= SEARCH_WINDOW_MS };
      }),

    reply: (connection, target, text, { tokens }) =>
      session(connection, tokens, async (api) => {
        const created = await api.call('/2/tweets', {
          method: 'POST',
          json: { text, reply: { in_reply_to_tweet_id: target.commentId ?? target.postedId } },
          retryAfter: xRetryAfter,
        });
        const id = jsonString(created.json, 'data', 'id');
        if (!id) throw new PlatformError('X accepted the reply but returned no id');
        const handle = connection.accountName.replace(/^@/, '');
        return { id, permalink: handle ? `https://x.com/${handle}/status/${id}` : `https://x.com/i/web/status/${id}` };
      }),

    hide: (connection, { commentId }, hidden, { tokens }) =>
      session(connection, tokens, async (api) => {
        await api.call(`/2/tweets/${encodeURIComponent(commentId)}/hidden`, { method: 'PUT', json: { hidden }, retryAfter: xRetryAfter });
      }),

    like: (connection, { commentId }, { tokens }) =>
      session(connection, tokens, async (api) => {
        await api.call(`/2/users/${encodeURIComponent(connection.externalId)}/likes`, {
          method: 'POST',
          json: { tweet_id: commentId },
          retryAfter: xRetryAfter,
        });
      }),
  };
}

/**
 * The replies of one conversation, oldest first, each under its first version's id. `posts` are
 * what search returned (latest versions; an earlier version may be listed too), `versions` the
 * earlier versions the expansion brought.
 */
function commentsOf(postedId: string, posts: XPost[], versions: XPost[], users: Map<string, XUser>, accountId: string, now: Date): NetworkComment[] {
  const firstOf = new Map<string, string>(); // any version's id → the first version's id
  const byId = new Map<string, XPost>();
  for (const p of [...versions, ...posts]) {
    if (!p.id) continue;
    byId.set(p.id, p);
    const history = p.edit_history_tweet_ids?.length ? p.edit_history_tweet_ids : [p.id];
    for (const version of history) firstOf.set(version, history[0]!);
  }
  // The latest version of each reply: the one whose history is the longest.
  const latest = new Map<string, XPost>();
  for (const p of posts) {
    if (!p.id) continue;
    const first = firstOf.get(p.id) ?? p.id;
    const seen = latest.get(first);
    if (!seen || (p.edit_history_tweet_ids?.length ?? 1) > (seen.edit_history_tweet_ids?.length ?? 1)) latest.set(first, p);
  }
  latest.delete(firstOf.get(postedId) ?? postedId); // the post itself is in its own conversation

  const comments = [...latest.entries()].map(([first, p]): NetworkComment => {
    const author = users.get(p.author_id ?? '');
    const repliedTo = p.referenced_tweets?.find((r) => r.type === 'replied_to')?.id ?? null;
    const parent = repliedTo ? (firstOf.get(repliedTo) ?? repliedTo) : null;
    const edited = (p.edit_history_tweet_ids?.length ?? 1) > 1;
    const createdAt = networkDate(byId.get(first)?.created_at ?? p.created_at, now);
    return {
      id: first,
      parentId: parent === null || parent === (firstOf.get(postedId) ?? postedId) ? null : parent,
      authorId: p.author_id ?? null,
      authorName: author?.name || author?.username || p.author_id || 'X account',
      authorHandle: author?.username ? `@${author.username}` : null,
      authorAvatarUrl: author?.profile_image_url ?? null,
      text: p.text ?? '',
      createdAt,
      editedAt: edited ? networkDate(p.created_at, now) : null,
      permalink: author?.username ? `https://x.com/${author.username}/status/${p.id}` : `https://x.com/i/web/status/${p.id}`,
      fromAccount: p.author_id === accountId,
    };
  });
  return comments.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}
