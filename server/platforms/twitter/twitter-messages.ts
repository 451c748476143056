// X direct messages: the account's DM events, read newest first, and the answer sent into the
// conversation.
//
// Sources:
//   https://docs.x.com/x-api/direct-messages/get-recent-direct-message-events
//     GET /2/dm_events?dm_event.fields=…&event_types=MessageCreate&expansions=sender_id
//       &user.fields=…&max_results=100&pagination_token=…
//     → { data: [{ id, event_type, text, sender_id, dm_conversation_id, created_at,
//       attachments?: { media_keys } }], includes: { users: [{ id, name, username,
//       profile_image_url }] }, meta: { result_count, next_token? } }
//     Every conversation's events together, newest first; events of the last 30 days only
//     (https://docs.x.com/x-api/direct-messages/lookup/introduction).
//   https://docs.x.com/x-api/direct-messages/send-a-new-message-to-a-dm-conversation
//     POST /2/dm_conversations/{dm_conversation_id}/messages { text } → { data: {
//     dm_conversation_id, dm_event_id } }
//   https://docs.x.com/x-api/direct-messages/lookup/integrate (a one-to-one conversation's id is
//     "{smaller_user_id}-{larger_user_id}"; a group's is a single number)
//   https://developer.x.com/en/docs/x-api/direct-messages/lookup ("Direct Message event IDs are
//     common across the v1.1 and v2": the Account Activity webhook's ids, x-activity-webhook.ts)
//   https://docs.x.com/fundamentals/rate-limits (429 with x-rate-limit-reset)
// Cursor: the id of the newest event read. Event ids grow with time (snowflakes), so a read stops
// at the first event not newer than it. The page cap (1,000 events) guards against a runaway
// paging token; more DMs than that between two reads minutes apart would be left unread. Scopes: dm.read, dm.write (with tweet.read, users.read).
// An image would have to be uploaded as DM media first: Herald sends text only (the catalogue).
import { apiEndpoint, jsonString } from '../http';
import { PageBudget } from '../comment-pages';
import { networkDate } from '../comments';
import type { MessagesClient, NetworkMessage } from '../conversations';
import { PlatformError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { xRefresher, type TwitterOptions } from './twitter-publisher';
import { X_DEFAULT_BASE_URL, xClient, xRetryAfter, type XClient } from './x-api';

/** The most pages of 100 events one read asks for. */
export const DEFAULT_DM_PAGES = 10;
const EVENT_FIELDS = 'id,text,event_type,dm_conversation_id,created_at,sender_id,attachments';

export interface TwitterMessagesOptions extends TwitterOptions {
  maxPages?: number;
}

interface DmEvent {
  id?: string;
  event_type?: string;
  text?: string;
  sender_id?: string;
  dm_conversation_id?: string;
  created_at?: string;
}

interface XUser {
  id?: string;
  name?: string;
  username?: string;
  profile_image_url?: string;
}

interface DmEventsPage {
  data?: DmEvent[];
  includes?: { users?: XUser[] };
  meta?: { next_token?: string };
}

/** Compares two numeric ids of any length (snowflakes exceed what a double holds exactly). */
export function compareXIds(a: string, b: string): number {
  const x = a.replace(/^0+/, '');
  const y = b.replace(/^0+/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A one-to-one conversation's id: the two user ids, the smaller first. */
export function xConversationId(a: string, b: string): string {
  return compareXIds(a, b) <= 0 ? `${a}-${b}` : `${b}-${a}`;
}

/**
 * The person an answer goes to: in a one-to-one conversation the id that is not the account's;
 * a group conversation has no one person, and is answered by its id alone (it stands for them).
 */
export function xCounterpart(conversationId: string, accountId: string, senderId: string): string {
  const pair = /^(\d+)-(\d+)$/.exec(conversationId);
  if (pair) return pair[1] === accountId ? pair[2]! : pair[1]!;
  return conversationId || senderId;
}

export function createTwitterMessagesClient(options: TwitterMessagesOptions = {}): MessagesClient {
  const session = <T>(connection: PublishableConnection, tokens: TokenStore, call: (api: XClient) => Promise<T>): Promise<T> => {
    const { fetch, baseUrl } = apiEndpoint(options, 'X_API_BASE_URL', X_DEFAULT_BASE_URL);
    return withAccessToken(connection, xRefresher(fetch, baseUrl, options), tokens, (token) => call(xClient(fetch, baseUrl, token, options.timeoutMs)));
  };

  return {
    source: 'twitter',

    readMessages: (connection, cursor, { tokens, now }) =>
      session(connection, tokens, async (api) => {
        const budget = new PageBudget(options.maxPages ?? DEFAULT_DM_PAGES);
        const messages: NetworkMessage[] = [];
        // A cursor that is not an event id (none stored yet, or damaged) reads as from the start.
        const since = cursor && /^\d+$/.test(cursor) ? cursor : null;
        let newest = since;
        let nextToken: string | undefined;
        read: while (budget.take()) {
          const query = new URLSearchParams({
            'dm_event.fields': EVENT_FIELDS,
            event_types: 'MessageCreate',
            expansions: 'sender_id',
            'user.fields': 'name,username,profile_image_url',
            max_results: '100',
            ...(nextToken ? { pagination_token: nextToken } : {}),
          });
          const page = (await api.call(`/2/dm_events?${query}`, { retryAfter: xRetryAfter })).json as DmEventsPage | null;
          const users = new Map((page?.includes?.users ?? []).filter((u) => u.id).map((u) => [u.id!, u]));
          for (const event of page?.data ?? []) {
            if (!event.id || !/^\d+$/.test(event.id)) continue;
            if (since && compareXIds(event.id, since) <= 0) break read;
            if (!newest || compareXIds(event.id, newest) > 0) newest = event.id;
            const message = toMessage(event, users, connection.externalId, now);
            if (message) messages.push(message);
          }
          nextToken = page?.meta?.next_token;
          if (!nextToken) break;
        }
        return { messages, cursor: newest ?? cursor };
      }),

    sendMessage: (connection, to, message, { tokens }) =>
      session(connection, tokens, async (api) => {
        if (message.imageUrl) throw new PlatformError('Herald sends X direct messages as text only; remove the image');
        const conversationId = to.conversationId || xConversationId(connection.externalId, to.counterpartId);
        const sent = await api.call(`/2/dm_conversations/${encodeURIComponent(conversationId)}/messages`, {
          method: 'POST',
          json: { text: message.text },
          retryAfter: xRetryAfter,
        });
        const id = jsonString(sent.json, 'data', 'dm_event_id');
        if (!id) throw new PlatformError('X accepted the message but returned no dm_event_id');
        return { id };
      }),
  };
}

function toMessage(event: DmEvent, users: Map<string, XUser>, accountId: string, now: Date): NetworkMessage | null {
  // Joins and leaves of a group are events too; only a message is an item.
  if (event.event_type !== 'MessageCreate' || !event.id || !event.sender_id) return null;
  const fromAccount = event.sender_id === accountId;
  const conversationId = event.dm_conversation_id || (fromAccount ? null : xConversationId(accountId, event.sender_id));
  if (!conversationId) return null;
  const author = users.get(event.sender_id);
  return {
    id: event.id,
    conversationId,
    counterpartId: xCounterpart(conversationId, accountId, event.sender_id),
    authorId: event.sender_id,
    authorName: author?.name || author?.username || event.sender_id,
    authorHandle: author?.username ? `@${author.username}` : null,
    authorAvatarUrl: author?.profile_image_url ?? null,
    text: event.text ?? '',
    attachmentUrl: null,
    createdAt: networkDate(event.created_at, now),
    fromAccount,
  };
}
