// Mastodon comments: the replies under the account's own statuses, read from the account's own
// server, and the reply and favourite the catalogue offers.
//
// Sources:
//   https://docs.joinmastodon.org/methods/statuses/#context
//     GET /api/v1/statuses/:id/context → { ancestors: [Status], descendants: [Status] }
//     "User token + read:statuses for up to 4,096 ancestors, 4,096 descendants, unlimited depth,
//     and private statuses"; public statuses without a token: 60 descendants, depth 20.
//     404 { error: "Record not found" } when the status is gone (or private to the viewer).
//   https://docs.joinmastodon.org/entities/Status/ (id, in_reply_to_id, account { id, username,
//     acct, display_name, avatar }, content as HTML, created_at, edited_at, url, uri, visibility)
//   https://docs.joinmastodon.org/methods/statuses/#create POST /api/v1/statuses { status,
//     in_reply_to_id, visibility } with Idempotency-Key (kept an hour; a repeat gets the same status)
//   https://docs.joinmastodon.org/methods/statuses/#get (the status answered: its visibility)
//   https://docs.joinmastodon.org/methods/statuses/#favourite POST /api/v1/statuses/:id/favourite
//     → Status (OAuth write:favourites; "favourited or was already favourited")
//   https://docs.joinmastodon.org/api/rate-limits/ (429, X-RateLimit-Reset)
//
// Comments are the descendants of the status, each with in_reply_to_id as its parent (null when it
// answers the status itself); a deleted reply is simply absent. The text is the content's HTML as
// plain text (paragraphs and line breaks kept). The account is recognised by its id on its own
// server (platformData.accountId; externalId is "<id>@<host>"). A reply longer than the server's
// own limit (platformData.maxChars, as the publisher checks) is refused before it is sent; it goes
// out no more public than the status it answers (a followers-only or direct comment is not
// answered in public). A token granted without read:statuses is refused with 403: the context is
// then read without it, which Mastodon caps (and which leaves out followers-only replies), so the
// list is incomplete. Favouriting needs write:favourites; a server's refusal is passed on verbatim.
import * as cheerio from 'cheerio';
import { callApi, defaultFetch, jsonString, type AdapterOptions, type ApiResponse } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { networkDate, type CommentsClient, type NetworkComment } from '../comments';
import { PlatformError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { mastodonClient, mastodonError, mastodonRetryAfter, type MastodonClient } from './mastodon-api';
import { serverOf } from './mastodon-publisher';

const { text: textRules } = PLATFORM_CATALOGUE.mastodon;
type MastodonServer = ReturnType<typeof serverOf>;

/** The most descendants a context answer holds for a user token. */
const MAX_DESCENDANTS = 4096;
const VISIBILITY_ORDER = ['public', 'unlisted', 'private', 'direct'];

interface Status {
  id?: string;
  in_reply_to_id?: string | null;
  account?: { id?: string; username?: string; acct?: string; display_name?: string; avatar?: string };
  content?: string;
  created_at?: string;
  edited_at?: string | null;
  url?: string | null;
  uri?: string;
  visibility?: string;
}

export function createMastodonCommentsClient(options: AdapterOptions = {}): CommentsClient {
  const session = <T>(
    connection: PublishableConnection,
    tokens: TokenStore,
    call: (api: MastodonClient, token: string, server: MastodonServer) => Promise<T>,
  ) => {
    // Each account lives on its own server: options.baseUrl (tests) stands in for it.
    const server = serverOf(connection.platformData ?? {}, options.baseUrl);
    return withAccessToken(connection, null, tokens, (token) =>
      call(mastodonClient(options.fetch ?? defaultFetch(), server.origin, token, options.timeoutMs), token, server),
    );
  };

  return {
    source: 'mastodon',

    readComments: (connection, post, { tokens, now }) =>
      session(connection, tokens, async (_api, token, { origin }) => {
        const path = `/api/v1/statuses/${encodeURIComponent(post.postedId)}/context`;
        const get = (authorized: boolean): Promise<ApiResponse> =>
          callApi(options.fetch ?? defaultFetch(), `${origin}${path}`, {
            headers: authorized ? { authorization: `Bearer ${token}` } : {},
            timeoutMs: options.timeoutMs,
            retryAfter: mastodonRetryAfter,
          });
        let response = await get(true);
        const anonymous = response.status === 403; // a token without read:statuses
        if (anonymous) response = await get(false);
        if (response.status === 404) return { ok: false, reason: jsonString(response.json, 'error') || 'Mastodon did not find this status' };
        if (anonymous && response.status === 401) {
          // The server answers no one without a token (authorized fetch): the account is fine, its token's scopes are not.
          throw new PlatformError('This Mastodon server requires a token with read:statuses to read replies, which Herald’s connection was not granted', {
            status: 403,
          });
        }
        if (response.status < 200 || response.status >= 300) throw mastodonError(response);

        const descendants = ((response.json as { descendants?: Status[] } | null)?.descendants ?? []).filter((s) => s.id);
        const accountId = accountIdOf(connection);
        const comments = descendants.map((status): NetworkComment => commentOf(status, post.postedId, accountId, now));
        return { ok: true, comments, complete: !anonymous && descendants.length < MAX_DESCENDANTS };
      }),

    reply: (connection, target, text, { tokens, idempotencyKey }) =>
      session(connection, tokens, async (api, _token, server) => {
        const length = textRules.count(text);
        if (length > server.maxChars) throw new PlatformError(`This Mastodon server allows ${server.maxChars} characters; this text counts ${length}`);
        const inReplyTo = target.commentId ?? target.postedId;
        const answered = await api.call('GET', `/api/v1/statuses/${encodeURIComponent(inReplyTo)}`).then(
          (r) => r.json as Status | null,
          (error: unknown) => {
            // A token without read:statuses reads no status, but then no followers-only comment reached the inbox either.
            if (error instanceof PlatformError && error.opts.status === 403) return null;
            throw error;
          },
        );
        const visibility = answered?.visibility && VISIBILITY_ORDER.indexOf(answered.visibility) > 0 ? answered.visibility : undefined;
        const status = await api.call('POST', '/api/v1/statuses', {
          headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined,
          json: { status: text, in_reply_to_id: inReplyTo, ...(visibility ? { visibility } : {}) },
        });
        const id = jsonString(status.json, 'id');
        if (!id) throw new PlatformError('Mastodon accepted the reply but returned no id');
        return { id, permalink: jsonString(status.json, 'url') ?? null };
      }),

    like: (connection, { commentId }, { tokens }) =>
      session(connection, tokens, async (api) => {
        await api.call('POST', `/api/v1/statuses/${encodeURIComponent(commentId)}/favourite`);
      }),
  };
}

/** The account's id on its own server, as statuses name their author. */
export function accountIdOf(connection: Pick<PublishableConnection, 'externalId' | 'platformData'>): string {
  const stored = connection.platformData?.accountId;
  if (typeof stored === 'string' && stored) return stored;
  return connection.externalId.split('@')[0]!;
}

function commentOf(status: Status, postedId: string, accountId: string, now: Date): NetworkComment {
  const account = status.account ?? {};
  const editedAt = status.edited_at ? networkDate(status.edited_at, now) : null;
  return {
    id: status.id!,
    parentId: status.in_reply_to_id && status.in_reply_to_id !== postedId ? status.in_reply_to_id : null,
    authorId: account.id ?? null,
    authorName: account.display_name?.trim() || account.username || account.acct || 'Mastodon account',
    authorHandle: account.acct ? `@${account.acct}` : null,
    authorAvatarUrl: account.avatar ?? null,
    text: plainText(status.content ?? ''),
    createdAt: networkDate(status.created_at, now),
    editedAt,
    permalink: status.url ?? status.uri ?? null,
    fromAccount: account.id === accountId,
  };
}

/** A status's HTML content as text: paragraphs apart by a blank line, <br> as a line break. */
export function plainText(html: string): string {
  const marked = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>\s*<p[^>]*>/gi, '\n\n');
  return cheerio.load(marked, null, false).text().trim();
}
