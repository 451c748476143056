// Bluesky direct messages: the account's chat conversations, read and answered through its PDS,
// which forwards chat.bsky.* calls to Bluesky's chat service when asked with the atproto-proxy
// header (the PDS holds the session; the chat service is not called directly).
//
// Sources:
//   https://docs.bsky.app/docs/api/chat-bsky-convo-list-convos
//     GET /xrpc/chat.bsky.convo.listConvos?limit=1..100&cursor → { cursor?, convos: [convoView] }
//     convoView: { id, rev, members: [profileViewBasic { did, handle, displayName?, avatar? }],
//     lastMessage?: messageView | deletedMessageView, muted, status?: "request" | "accepted",
//     unreadCount }; conversations most recently active first.
//   https://docs.bsky.app/docs/api/chat-bsky-convo-get-messages
//     GET /xrpc/chat.bsky.convo.getMessages?convoId&limit=1..100&cursor → { cursor?, messages:
//     [messageView | deletedMessageView] }, newest first. messageView: { $type:
//     "chat.bsky.convo.defs#messageView", id, rev, text, facets?, embed?, sender: { did }, sentAt }.
//   https://docs.bsky.app/docs/api/chat-bsky-convo-send-message
//     POST /xrpc/chat.bsky.convo.sendMessage { convoId, message: { text, facets? } } → messageView
//   https://atproto.com/specs/xrpc#service-proxying (the PDS forwards a call to the service the
//     atproto-proxy header names: Bluesky's chat service is did:web:api.bsky.chat#bsky_chat)
//   https://github.com/bluesky-social/atproto/blob/main/lexicons/chat/bsky/convo/defs.json
// A conversation is the convo id, the person the other member's DID. A chat message can embed a
// post but no image: Herald sends text (with link and mention facets, as its posts have).
// Cursor: the time of the newest message read (ISO 8601), as for Meta (graph-messages.ts): a
// later read lists the conversations active since, and in each reads the messages not older;
// equal times are read again (the store knows them). Each conversation costs a call, so a read
// that runs out of calls stops its cursor where everything before is read (see readMessages).
// Chat needs an app password made with access to direct messages; one without is refused with
// "Bad token scope", which is said as such rather than as a dead session (publishing still works).
import { callApi, defaultFetch, isSuccess, jsonString, withQuery, type AdapterOptions, type ApiResponse } from '../http';
import { PageBudget } from '../comment-pages';
import { networkDate } from '../comments';
import { readActiveConversations, type MessagesClient, type NetworkMessage } from '../conversations';
import { PlatformError, TokenExpiredError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { blueskyError, blueskyRefresher, blueskyRetryAfter } from './bluesky-api';
import { accountOf } from './bluesky-publisher';
import { detectFacets } from './bluesky-richtext';

export const BLUESKY_CHAT_PROXY = 'did:web:api.bsky.chat#bsky_chat';
/** The most pages one read asks for (conversation lists and message pages together). */
export const DEFAULT_CHAT_PAGES = 50;
const PAGE_SIZE = '100';
const MESSAGE_VIEW = 'chat.bsky.convo.defs#messageView';

export interface BlueskyMessagesOptions extends AdapterOptions {
  maxPages?: number;
}

interface Member {
  did?: string;
  handle?: string;
  displayName?: string;
  avatar?: string;
}

interface MessageView {
  $type?: string;
  id?: string;
  text?: string;
  sender?: { did?: string };
  sentAt?: string;
}

interface ConvoView {
  id?: string;
  members?: Member[];
  lastMessage?: MessageView;
}

interface Chat {
  did: string;
  query(nsid: string, params: Record<string, string>): Promise<unknown>;
  procedure(nsid: string, body: unknown): Promise<unknown>;
  /** A PDS query of its own (not proxied): resolving a handle for a mention. */
  resolveHandle(handle: string): Promise<string | null>;
}

/** A refusal of the chat service; a token without chat access is not a dead session. */
function chatError(response: ApiResponse): PlatformError {
  const error = blueskyError(response);
  if (/bad token scope/i.test(error.message)) {
    return new PlatformError(`Bluesky refused access to direct messages (${error.message}): reconnect with an app password that allows direct messages`, {
      status: response.status,
    });
  }
  return error;
}

export function createBlueskyMessagesClient(options: BlueskyMessagesOptions = {}): MessagesClient {
  const session = <T>(connection: PublishableConnection, tokens: TokenStore, call: (chat: Chat) => Promise<T>): Promise<T> => {
    const fetch = options.fetch ?? defaultFetch();
    // Each account lives on its own PDS: options.baseUrl (tests) stands in for it.
    const account = accountOf(connection, options.baseUrl);
    return withAccessToken(connection, blueskyRefresher(fetch, account.pds, options.timeoutMs), tokens, (accessJwt) => {
      const headers = { authorization: `Bearer ${accessJwt}`, 'atproto-proxy': BLUESKY_CHAT_PROXY };
      const settle = (response: ApiResponse) => {
        if (!isSuccess(response)) throw chatError(response);
        return response.json;
      };
      return call({
        did: account.did,
        query: async (nsid, params) =>
          settle(
            await callApi(fetch, withQuery(`${account.pds}/xrpc/${nsid}`, params), { headers, timeoutMs: options.timeoutMs, retryAfter: blueskyRetryAfter }),
          ),
        procedure: async (nsid, body) =>
          settle(
            await callApi(fetch, `${account.pds}/xrpc/${nsid}`, {
              method: 'POST',
              headers,
              json: body,
              timeoutMs: options.timeoutMs,
              retryAfter: blueskyRetryAfter,
            }),
          ),
        async resolveHandle(handle) {
          const response = await callApi(fetch, withQuery(`${account.pds}/xrpc/com.atproto.identity.resolveHandle`, { handle }), {
            headers: { authorization: `Bearer ${accessJwt}` },
            timeoutMs: options.timeoutMs,
          });
          if (isSuccess(response)) return jsonString(response.json, 'did') ?? null;
          const error = blueskyError(response);
          if (error instanceof TokenExpiredError) throw error;
          return null; // an unknown handle stays plain text
        },
      });
    });
  };

  return {
    source: 'bluesky',

    readMessages: (connection, cursor, { tokens, now }) =>
      session(connection, tokens, async (chat) => {
        const since = cursor && !Number.isNaN(Date.parse(cursor)) ? Date.parse(cursor) : null;
        const budget = new PageBudget(options.maxPages ?? DEFAULT_CHAT_PAGES);
        // The conversations active since the cursor; a first read takes the most recent page of them.
        const active: { convo: ConvoView; lastAt: number }[] = [];
        let listCursor: string | undefined;
        while (budget.take()) {
          const page = (await chat.query('chat.bsky.convo.listConvos', { limit: PAGE_SIZE, ...(listCursor ? { cursor: listCursor } : {}) })) as {
            convos?: ConvoView[];
            cursor?: string;
          } | null;
          let reachedOlder = false;
          for (const convo of page?.convos ?? []) {
            if (!convo.id || !convo.lastMessage?.sentAt) continue; // no message yet
            const lastAt = networkDate(convo.lastMessage.sentAt, now).getTime();
            if (since !== null && lastAt < since) {
              reachedOlder = true;
              continue;
            }
            active.push({ convo, lastAt });
          }
          listCursor = page?.cursor;
          if (since === null || reachedOlder || !listCursor) break;
        }

        // Each conversation costs a call: read the least recently active first, so that when the
        // budget runs out, everything up to the last conversation read in full is in, and the
        // cursor stops there; the next read lists the rest again (active since) and goes on.
        return readActiveConversations(
          active.map(({ convo, lastAt }) => ({ conversation: convo, lastAt })),
          since,
          cursor,
          async (convo) => {
            const { views, whole } = await convoMessages(chat, convo.id!, since, budget);
            return { messages: views.map((view) => toMessage(view, convo, chat.did, now)).filter((m): m is NetworkMessage => m !== null), whole };
          },
        );
      }),

    sendMessage: (connection, to, message, { tokens }) =>
      session(connection, tokens, async (chat) => {
        if (message.imageUrl) throw new PlatformError('A Bluesky chat message carries no image; remove it');
        const facets = await detectFacets(message.text, (handle) => chat.resolveHandle(handle));
        const sent = await chat.procedure('chat.bsky.convo.sendMessage', {
          convoId: to.conversationId,
          message: { text: message.text, ...(facets.length ? { facets } : {}) },
        });
        const id = jsonString(sent, 'id');
        if (!id) throw new PlatformError('Bluesky accepted the message but returned no id');
        return { id };
      }),
  };
}

/**
 * A conversation's messages not older than `since`, newest first: pages while every message on
 * them is newer. A first read (no cursor) takes one page: the recent messages, not every
 * conversation's whole history. `whole`: false when the budget ran out before the last page needed.
 */
async function convoMessages(chat: Chat, convoId: string, since: number | null, budget: PageBudget): Promise<{ views: MessageView[]; whole: boolean }> {
  const views: MessageView[] = [];
  let cursor: string | undefined;
  for (;;) {
    if (!budget.take()) return { views, whole: false };
    const page = (await chat.query('chat.bsky.convo.getMessages', { convoId, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) })) as {
      messages?: MessageView[];
      cursor?: string;
    } | null;
    let older = false;
    for (const view of page?.messages ?? []) {
      const at = Date.parse(view.sentAt ?? '');
      if (since !== null && !Number.isNaN(at) && at < since) {
        older = true;
        continue;
      }
      views.push(view);
    }
    cursor = page?.cursor;
    if (since === null || older || !cursor) return { views, whole: true };
  }
}

function toMessage(view: MessageView, convo: ConvoView, accountDid: string, now: Date): NetworkMessage | null {
  // A deleted message (deletedMessageView) has no text to show; other kinds are not messages.
  if ((view.$type !== undefined && view.$type !== MESSAGE_VIEW) || !view.id || !view.sender?.did || typeof view.text !== 'string') return null;
  const members = convo.members ?? [];
  const sender = members.find((m) => m.did === view.sender!.did);
  const other = members.find((m) => m.did && m.did !== accountDid);
  const handle = sender?.handle && sender.handle !== 'handle.invalid' ? sender.handle : null;
  return {
    id: view.id,
    conversationId: convo.id!,
    counterpartId: other?.did ?? view.sender.did,
    authorId: view.sender.did,
    authorName: sender?.displayName?.trim() || handle || view.sender.did,
    authorHandle: handle ? `@${handle}` : null,
    authorAvatarUrl: sender?.avatar ?? null,
    text: view.text,
    attachmentUrl: null,
    createdAt: networkDate(view.sentAt, now),
    fromAccount: view.sender.did === accountDid,
  };
}
