// LinkedIn comments: the comments under the account's own posts (a page's, urn:li:organization,
// or a member's, urn:li:person), read, answered, deleted and liked through the versioned REST
// API (Community Management).
//
// Sources:
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
//     GET /rest/socialActions/{shareUrn|ugcPostUrn|commentUrn}/comments?start&count →
//       { paging: { start, count, total, links }, elements: [Comment] }: the comments on a post,
//       or the comments on a comment (LinkedIn nests one level). A Comment: id, commentUrn,
//       actor, agent, object, parentComment, message { text, attributes }, created { actor,
//       time }, lastModified { actor, time }, commentsSummary { totalFirstLevelComments,
//       aggregatedTotalComments }, likesSummary.
//     POST /rest/socialActions/{shareUrn|commentUrn}/comments { actor, object, message: { text },
//       parentComment? } → 201 with the comment created.
//     DELETE /rest/socialActions/{shareUrn}/comments/{commentId}?actor={actor} → 204.
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/reactions-api
//     POST /rest/reactions?actor={actor} { root: <comment URN>, reactionType: LIKE } → 201.
// Reading a page's comments needs r_organization_social_feed; a member's own posts need
// r_member_social, which LinkedIn grants to few apps (its refusal is passed on verbatim).
// LinkedIn names a comment's author by URN only (names need a profile lookup Herald does not
// make), and documents no address for a comment, so permalink is null. An edited comment has a
// later lastModified.time than created.time.
import { apiEndpoint, jsonString, type ApiResponse } from '../http';
import { env } from '@/server/config/env';
import { networkDate, type CommentsClient, type NetworkComment } from '../comments';
import { PageBudget } from '../comment-pages';
import { PlatformError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { authorUrn, LINKEDIN_DEFAULT_BASE_URL, LINKEDIN_DEFAULT_VERSION, linkedinClient, type LinkedInClient } from './linkedin-api';
import { linkedinRefresher, type LinkedInOptions } from './linkedin-publisher';

const PAGE_SIZE = 50;

export interface LinkedInCommentsOptions extends LinkedInOptions {
  /** The most pages one read asks for (comment-pages.ts DEFAULT_COMMENT_PAGES). */
  maxPages?: number;
}

type Json = Record<string, unknown>;

export function createLinkedInCommentsClient(options: LinkedInCommentsOptions = {}): CommentsClient {
  const withApi = <T>(connection: PublishableConnection, tokens: TokenStore, call: (api: LinkedInClient) => Promise<T>) => {
    const { fetch, baseUrl } = apiEndpoint(options, 'LINKEDIN_API_BASE_URL', LINKEDIN_DEFAULT_BASE_URL);
    const version = options.version ?? env.linkedinApiVersion() ?? LINKEDIN_DEFAULT_VERSION;
    return withAccessToken(connection, linkedinRefresher(fetch, options), tokens, (token) =>
      call(linkedinClient(fetch, baseUrl, token, version, options.timeoutMs)),
    );
  };

  return {
    source: 'linkedin',

    readComments(connection, post, { tokens }) {
      return withApi(connection, tokens, async (api) => {
        const budget = new PageBudget(options.maxPages);
        const account = authorUrn(connection.externalId);
        let top: { items: Json[]; complete: boolean };
        try {
          top = await readComments(api, post.postedId, budget);
        } catch (error) {
          // The post is gone (deleted on LinkedIn): LinkedIn's words are the reason.
          if (error instanceof PlatformError && error.opts.status === 404) return { ok: false, reason: error.message };
          throw error;
        }
        let complete = top.complete;
        const comments: NetworkComment[] = [];
        for (const raw of top.items) {
          const comment = toComment(raw, null, account, connection, post.publishedAt);
          if (!comment) continue;
          comments.push(comment);
          if (!mayHaveReplies(raw)) continue;
          let nested: { items: Json[]; complete: boolean };
          try {
            nested = await readComments(api, comment.id, budget);
          } catch (error) {
            // Deleted while being read: its replies went with it.
            if (error instanceof PlatformError && error.opts.status === 404) continue;
            throw error;
          }
          complete &&= nested.complete;
          for (const reply of nested.items) {
            const mapped = toComment(reply, comment.id, account, connection, post.publishedAt);
            if (mapped) comments.push(mapped);
          }
        }
        return { ok: true, comments, complete };
      });
    },

    reply(connection, { postedId, commentId }, text, { tokens }) {
      return withApi(connection, tokens, async (api) => {
        const actor = authorUrn(connection.externalId);
        const target = commentId ?? postedId;
        const created = await api.call('POST', `/rest/socialActions/${restliEncode(target)}/comments`, {
          actor,
          object: postedId,
          message: { text },
          ...(commentId ? { parentComment: commentId } : {}),
        });
        const id = createdCommentId(created);
        if (!id) throw new PlatformError('LinkedIn accepted the comment but returned no comment id');
        return { id, permalink: null };
      });
    },

    delete(connection, { postedId, commentId }, { tokens }) {
      return withApi(connection, tokens, async (api) => {
        const actor = restliEncode(authorUrn(connection.externalId));
        await api.call('DELETE', `/rest/socialActions/${restliEncode(postedId)}/comments/${restliEncode(commentNumber(commentId))}?actor=${actor}`);
      });
    },

    like(connection, { commentId }, { tokens }) {
      return withApi(connection, tokens, async (api) => {
        const actor = restliEncode(authorUrn(connection.externalId));
        await api.call('POST', `/rest/reactions?actor=${actor}`, { root: commentId, reactionType: 'LIKE' });
      });
    },
  };
}

/** Every comment on `target` (a post, or a comment's replies), page after page within the budget. */
async function readComments(api: LinkedInClient, target: string, budget: PageBudget): Promise<{ items: Json[]; complete: boolean }> {
  const items: Json[] = [];
  for (let start = 0; ;) {
    if (!budget.take()) return { items, complete: false };
    const page = (await api.call('GET', `/rest/socialActions/${restliEncode(target)}/comments?start=${start}&count=${PAGE_SIZE}`)).json as {
      elements?: unknown;
      paging?: { start?: unknown; total?: unknown; links?: { rel?: unknown }[] };
    } | null;
    const elements = Array.isArray(page?.elements) ? (page.elements as unknown[]).filter((e): e is Json => e !== null && typeof e === 'object') : [];
    items.push(...elements);
    start = (typeof page?.paging?.start === 'number' ? page.paging.start : start) + elements.length;
    const total = typeof page?.paging?.total === 'number' ? page.paging.total : null;
    const nextLink = Array.isArray(page?.paging?.links) && page.paging.links.some((l) => l?.rel === 'next');
    const more = elements.length > 0 && (total !== null ? start < total : nextLink || elements.length >= PAGE_SIZE);
    if (!more) return { items, complete: true };
  }
}

/** Whether a comment has comments of its own, as far as its summary tells (no summary: it may). */
function mayHaveReplies(raw: Json): boolean {
  const summary = raw.commentsSummary as { totalFirstLevelComments?: unknown; aggregatedTotalComments?: unknown } | undefined;
  if (!summary) return true;
  const counts = [summary.totalFirstLevelComments, summary.aggregatedTotalComments].filter((n): n is number => typeof n === 'number');
  return counts.length === 0 || counts.some((n) => n > 0);
}

function toComment(raw: Json, parentId: string | null, account: string, connection: PublishableConnection, fallback: Date): NetworkComment | null {
  const urn = jsonString(raw, 'commentUrn') ?? jsonString(raw, '$URN');
  const id = urn ?? jsonString(raw, 'id');
  if (!id) return null;
  const actor = jsonString(raw, 'actor') ?? null;
  const fromAccount = actor === account;
  const createdAt = networkDate(raw.created && (raw.created as Json).time, fallback);
  const modified = (raw.lastModified as Json | undefined)?.time;
  const editedAt = typeof modified === 'number' && modified > createdAt.getTime() ? new Date(modified) : null;
  return {
    id,
    parentId: jsonString(raw, 'parentComment') ?? parentId,
    authorId: actor,
    authorName: fromAccount ? connection.accountName : actor?.startsWith('urn:li:organization:') ? 'LinkedIn page' : 'LinkedIn member',
    authorHandle: null,
    text: jsonString(raw, 'message', 'text') ?? '',
    createdAt,
    editedAt,
    permalink: null,
    fromAccount,
  };
}

/** The comment created: its URN from the body, or LinkedIn's id for it (x-restli-id). */
function createdCommentId(created: ApiResponse): string | null {
  const urn = jsonString(created.json, 'commentUrn') ?? jsonString(created.json, '$URN');
  if (urn) return urn;
  const object = jsonString(created.json, 'object');
  const id = jsonString(created.json, 'id') ?? created.headers.get('x-restli-id');
  if (id?.startsWith('urn:li:comment:')) return id;
  if (id && object) return `urn:li:comment:(${object},${id})`;
  return id ?? null;
}

/**
 * A URN as a Rest.li 2.0 path or query value: percent-encoded, parentheses and commas included
 * (a comment URN, urn:li:comment:(urn:li:activity:…,…), travels as urn%3Ali%3Acomment%3A%28…%2C…%29).
 */
function restliEncode(value: string): string {
  return encodeURIComponent(value).replace(/\(/g, '%28').replace(/\)/g, '%29');
}

/** The comment's own id inside its URN, urn:li:comment:(<object>,<id>), as the delete path takes it. */
function commentNumber(commentId: string): string {
  const match = /^urn:li:comment:\(.*,([^,()]+)\)$/.exec(commentId);
  return match ? match[1]! : commentId;
}
