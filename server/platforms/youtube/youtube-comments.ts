// YouTube comments: the comment threads under the channel's own videos, read with the Data API
// v3, and the reply and hide (hold for review) the catalogue offers.
//
// Sources:
//   https://developers.google.com/youtube/v3/docs/commentThreads/list
//     GET /youtube/v3/commentThreads?part=snippet,replies&videoId=&maxResults=100&textFormat=plainText
//     &moderationStatus=&pageToken= → { items: [commentThread], nextPageToken? } (1 quota unit a page).
//     moderationStatus (owner only): published (the default), heldForReview, likelySpam; a thread
//     is listed under heldForReview or likelySpam when its top-level comment or one of its replies is.
//     403 commentsDisabled, 404 videoNotFound.
//   https://developers.google.com/youtube/v3/docs/commentThreads (snippet.topLevelComment,
//     totalReplyCount; replies.comments "does not necessarily contain all replies")
//   https://developers.google.com/youtube/v3/docs/comments/list GET /youtube/v3/comments?part=snippet
//     &parentId= (every reply, paged) or &id= (one comment: its snippet.parentId)
//   https://developers.google.com/youtube/v3/docs/comments (snippet: authorDisplayName,
//     authorProfileImageUrl, authorChannelId.value, textDisplay, parentId, moderationStatus (owner
//     only), publishedAt, updatedAt)
//   https://developers.google.com/youtube/v3/docs/comments/insert POST /youtube/v3/comments?part=snippet
//     { snippet: { parentId, textOriginal } } (a reply; parentId must be a top-level comment)
//   https://developers.google.com/youtube/v3/docs/commentThreads/insert POST /youtube/v3/commentThreads
//     ?part=snippet { snippet: { channelId, videoId, topLevelComment: { snippet: { textOriginal } } } }
//   https://developers.google.com/youtube/v3/docs/comments/setModerationStatus POST
//     /youtube/v3/comments/setModerationStatus?id=&moderationStatus=heldForReview|published → 204
//   https://developers.google.com/youtube/v3/docs/errors
//
// Replies on YouTube are one level deep: a reply's parentId is its top-level comment, and answering
// a reply answers its thread. Hidden is the owner's moderation status: a comment held for review
// (what hide does) or held as likely spam is hidden, and listed by its own pass, so it is not taken
// for deleted. A token that may not list held comments (the moderationStatus filter needs the
// youtube.force-ssl scope) leaves the list incomplete. Comments, replies and moderation need
// youtube.force-ssl; Google's refusal is passed on verbatim.
import { apiEndpoint, callApi, isSuccess, withQuery, type ApiResponse } from '../http';
import { networkDate, type CommentsClient, type NetworkComment } from '../comments';
import { googleError, googleErrorText, googleReasons, googleRefresher } from '../google/google-api';
import { oauthApps } from '../oauth-apps';
import { PlatformError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { YOUTUBE_DEFAULT_BASE_URL } from './youtube-api';
import type { YouTubeOptions } from './youtube-publisher';

const MODERATION_PASSES = ['published', 'heldForReview', 'likelySpam'] as const;
const GONE_REASONS = new Set(['videoNotFound', 'commentsDisabled']);
const SCOPE_REASONS = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', 'forbidden']);

interface Comment {
  id?: string;
  snippet?: {
    authorDisplayName?: string;
    authorProfileImageUrl?: string;
    authorChannelId?: { value?: string };
    textDisplay?: string;
    textOriginal?: string;
    parentId?: string;
    moderationStatus?: string;
    publishedAt?: string;
    updatedAt?: string;
  };
}

interface Thread {
  id?: string;
  snippet?: { topLevelComment?: Comment; totalReplyCount?: number };
  replies?: { comments?: Comment[] };
}

interface Api {
  get(path: string, params: Record<string, string | number | undefined>): Promise<ApiResponse>;
  send(method: string, path: string, params: Record<string, string>, json?: unknown): Promise<ApiResponse>;
}

export function createYouTubeCommentsClient(options: YouTubeOptions = {}): CommentsClient {
  const session = <T>(connection: PublishableConnection, tokens: TokenStore, call: (api: Api) => Promise<T>): Promise<T> => {
    const { fetch, baseUrl } = apiEndpoint(options, 'YOUTUBE_API_BASE_URL', YOUTUBE_DEFAULT_BASE_URL);
    return withAccessToken(connection, googleRefresher(fetch, options, oauthApps.youtube()), tokens, (token) => {
      const headers = { authorization: `Bearer ${token}` };
      return call({
        get: (path, params) => callApi(fetch, withQuery(`${baseUrl}${path}`, params), { headers, timeoutMs: options.timeoutMs }),
        async send(method, path, params, json) {
          const response = await callApi(fetch, withQuery(`${baseUrl}${path}`, params), { method, headers, json, timeoutMs: options.timeoutMs });
          const error = googleError(response, 'YouTube');
          if (error) throw error; // 401 → token expired (refreshed once); quota, scope, 5xx → Google's words
          return response;
        },
      });
    });
  };

  return {
    source: 'youtube',

    readComments: (connection, post, { tokens, now }) =>
      session(connection, tokens, async (api) => {
        const videoId = post.postedId;
        const found = new Map<string, { comment: Comment; pass: (typeof MODERATION_PASSES)[number] }>();
        let complete = true;
        passes: for (const pass of MODERATION_PASSES) {
          let pageToken: string | undefined;
          do {
            const response = await api.get('/youtube/v3/commentThreads', {
              part: 'snippet,replies',
              videoId,
              maxResults: 100,
              textFormat: 'plainText',
              moderationStatus: pass === 'published' ? undefined : pass,
              pageToken,
            });
            if (!isSuccess(response)) {
              const reasons = googleReasons(response.json);
              if (pass === 'published' && reasons.some((r) => GONE_REASONS.has(r))) return { ok: false, reason: googleErrorText(response, 'YouTube') };
              if (pass !== 'published' && response.status === 403 && reasons.some((r) => SCOPE_REASONS.has(r))) {
                complete = false; // held comments cannot be listed with this token: missing is not deleted
                break passes;
              }
              throw googleError(response, 'YouTube')!;
            }
            const body = response.json as { items?: Thread[]; nextPageToken?: string } | null;
            for (const thread of body?.items ?? []) {
              const top = thread.snippet?.topLevelComment;
              if (top?.id && !found.has(top.id)) found.set(top.id, { comment: top, pass });
              const included = thread.replies?.comments ?? [];
              const replies = top?.id && (thread.snippet?.totalReplyCount ?? 0) > included.length ? await allReplies(api, top.id) : included;
              for (const reply of replies) if (reply.id && !found.has(reply.id)) found.set(reply.id, { comment: reply, pass });
            }
            pageToken = body?.nextPageToken;
          } while (pageToken);
        }
        const comments = [...found.values()].map(({ comment, pass }) => commentOf(comment, pass, videoId, connection.externalId, now));
        return { ok: true, comments, complete };
      }),

    reply: (connection, target, text, { tokens }) =>
      session(connection, tokens, async (api) => {
        const videoId = target.postedId;
        if (target.commentId === null) {
          const created = await api.send(
            'POST',
            '/youtube/v3/commentThreads',
            { part: 'snippet' },
            {
              snippet: { channelId: connection.externalId, videoId, topLevelComment: { snippet: { textOriginal: text } } },
            },
          );
          const id = (created.json as Thread | null)?.snippet?.topLevelComment?.id ?? (created.json as Thread | null)?.id;
          if (!id) throw new PlatformError('YouTube accepted the comment but returned no id');
          return { id, permalink: permalinkOf(videoId, id) };
        }
        // YouTube takes replies under top-level comments only: answering a reply answers its thread.
        const lookup = await api.send('GET', '/youtube/v3/comments', { part: 'snippet', id: target.commentId });
        const answered = (lookup.json as { items?: Comment[] } | null)?.items?.[0];
        if (!answered) throw new PlatformError('YouTube did not return the comment being answered (deleted, or rejected)', { status: 404 });
        const created = await api.send(
          'POST',
          '/youtube/v3/comments',
          { part: 'snippet' },
          {
            snippet: { parentId: answered.snippet?.parentId ?? target.commentId, textOriginal: text },
          },
        );
        const id = (created.json as Comment | null)?.id;
        if (!id) throw new PlatformError('YouTube accepted the reply but returned no id');
        return { id, permalink: permalinkOf(videoId, id) };
      }),

    hide: (connection, { commentId }, hidden, { tokens }) =>
      session(connection, tokens, async (api) => {
        await api.send('POST', '/youtube/v3/comments/setModerationStatus', { id: commentId, moderationStatus: hidden ? 'heldForReview' : 'published' });
      }),
  };
}

/** Every reply of one top-level comment, page by page (comments.list?parentId=). */
async function allReplies(api: Api, parentId: string): Promise<Comment[]> {
  const replies: Comment[] = [];
  let pageToken: string | undefined;
  do {
    const response = await api.get('/youtube/v3/comments', { part: 'snippet', parentId, maxResults: 100, textFormat: 'plainText', pageToken });
    const error = googleError(response, 'YouTube');
    if (error) throw error;
    const body = response.json as { items?: Comment[]; nextPageToken?: string } | null;
    replies.push(...(body?.items ?? []));
    pageToken = body?.nextPageToken;
  } while (pageToken);
  return replies;
}

const permalinkOf = (videoId: string, commentId: string) =>
  `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}&lc=${encodeURIComponent(commentId)}`;

function commentOf(comment: Comment, pass: string, videoId: string, channelId: string, now: Date): NetworkComment {
  const s = comment.snippet ?? {};
  const createdAt = networkDate(s.publishedAt, now);
  const updatedAt = s.updatedAt ? networkDate(s.updatedAt, now) : null;
  const name = s.authorDisplayName?.trim() ?? '';
  return {
    id: comment.id!,
    parentId: s.parentId ?? null,
    authorId: s.authorChannelId?.value ?? null,
    authorName: name || s.authorChannelId?.value || 'YouTube channel',
    // Channels are named by their @handle now; an older name without one has no handle.
    authorHandle: name.startsWith('@') ? name : null,
    authorAvatarUrl: s.authorProfileImageUrl ?? null,
    text: s.textDisplay ?? s.textOriginal ?? '',
    createdAt,
    editedAt: updatedAt && updatedAt.getTime() !== createdAt.getTime() ? updatedAt : null,
    permalink: permalinkOf(videoId, comment.id!),
    // The owner is told each comment's moderation status; otherwise the pass that listed it says.
    hidden: s.moderationStatus ? s.moderationStatus !== 'published' : pass !== 'published',
    fromAccount: Boolean(s.authorChannelId?.value) && s.authorChannelId?.value === channelId,
  };
}
