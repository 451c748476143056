// Direct messages on Meta's Graph APIs (a Facebook Page's Messenger inbox, an Instagram
// professional account's inbox through its Page or through Instagram Login), shared by their
// messages clients: the three read the same conversations edge and send with the same Send API,
// and differ in host, token, the ids of the account and a few documented details.
//
// Sources:
//   https://developers.facebook.com/docs/messenger-platform/conversations
//     GET /{page-id}/conversations?platform=messenger|instagram → { data: [Conversation], paging };
//     Conversation: id, updated_time ("the most recent time a message was sent"), participants
//     { data: [{ id, name, email } (Messenger) | { id, username } (Instagram)] }, messages (the
//     edge to Message, newest first).
//   https://developers.facebook.com/docs/graph-api/reference/conversation (fields; Instagram: only
//     the 20 most recent messages of a conversation can be read)
//   https://developers.facebook.com/docs/graph-api/reference/message
//     id, created_time, from { id, name, email | username }, to { data: [...] }, message (the
//     text), attachments { data: [{ id, mime_type, name, image_data { url, preview_url },
//     file_url, video_data }] }.
//   https://developers.facebook.com/docs/messenger-platform/reference/send-api/
//     POST /{page-id}/messages { recipient: { id: PSID }, messaging_type: "RESPONSE", message:
//     { text } | { attachment: { type: "image", payload: { url, is_reusable } } } } →
//     { recipient_id, message_id }. A message carries text or one attachment, never both.
//   https://developers.facebook.com/docs/messenger-platform/instagram/features/send-message and
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/messaging-api
//     the same body with recipient.id the Instagram-scoped id, without messaging_type.
//   https://developers.facebook.com/docs/graph-api/results (cursor paging)
//
// Ids: Meta's webhook names neither the conversation nor anyone's name, only the person's scoped
// id (PSID, IGSID) and the message's `mid`; so that a read and a push give the same item, a
// conversation is known by that scoped id (conversationId = counterpartId), and a message by its
// id, which is the webhook's `mid`.
//
// Cursor: the time of the newest message read (ISO 8601). Graph has no "since" for messages; a
// later read takes the conversations whose newest message is not older than it, and in each the
// messages not older than it. Equal times are read again (the store knows them): a second
// message in the same second is not lost. A read that runs out of calls stops its cursor where
// everything before is read (readMetaMessages).
import { callApi, isSuccess, jsonAt, type Fetcher } from './http';
import { graphClient, graphError, requireId, type GraphClient, type GraphObject } from './graph-api';
import { graphId, graphText, nextCursor, pageData } from './graph-comments';
import { PageBudget } from './comment-pages';
import { networkDate } from './comments';
import { readActiveConversations, type MessagesRead, type NetworkMessage } from './conversations';

/** The most Graph pages one read asks for (conversations and their later message pages together). */
export const DEFAULT_MESSAGE_PAGES = 10;
/** The message fields the conversations edge embeds, as the catalogue names them. */
export const MESSAGE_FIELDS = 'id,from,to,message,created_time,attachments';

/** What distinguishes one Meta inbox from another. */
export interface MetaInbox {
  /** The network's name in messages. */
  name: string;
  /** `instagram` on the Messenger Platform and Instagram Login; absent for a Page's own inbox. */
  platformParam?: 'instagram';
  /** The `fields` of the conversations read, as the catalogue names them. */
  conversationFields: string;
  /** Messenger requires messaging_type (RESPONSE: an answer within the window); Instagram documents none. */
  messagingType: boolean;
  /** Messenger's attachment payload takes is_reusable; Instagram's documents only the url. */
  reusableFlag: boolean;
  /** Instagram names people by username (their handle); Messenger by name. */
  handles: boolean;
}

/** One connection's inbox: where it is read and sent from, and how the account appears in it. */
export interface MetaAccount {
  /** `{id}/conversations` is read (a Page id, or `me`). */
  inboxId: string;
  /** `{id}/messages` is sent to (a Page id, the Instagram account id, or `me`). */
  senderId: string;
  /** The ids the account appears under in a conversation. */
  ids: readonly string[];
  /** The account's username (Instagram), matched when an id is not the one stored. */
  username: string | null;
}

export interface MetaSession {
  graph: GraphClient;
  /** A JSON POST (the Send API's nested recipient and message). */
  postJson(path: string, body: unknown): Promise<GraphObject>;
}

/**
 * Graph calls for one base URL and token; the token in the Authorization header, as graph-api.ts
 * does, so it never lands in a URL.
 */
export function metaSession(fetch: Fetcher, baseUrl: string, accessToken: string, name: string, timeoutMs?: number): MetaSession {
  return {
    graph: graphClient(fetch, baseUrl, accessToken, name, timeoutMs),
    async postJson(path, body) {
      const response = await callApi(fetch, `${baseUrl}/${path.replace(/^\//, '')}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}` },
        json: body,
        timeoutMs,
      });
      if (!isSuccess(response) || jsonAt(response.json, 'error') !== undefined) throw graphError(response, name);
      return (response.json ?? {}) as GraphObject;
    },
  };
}

/** A cursor as a time, or null when there is none (or it is not one: read as from the start). */
function cursorTime(cursor: string | null): number | null {
  if (!cursor) return null;
  const at = Date.parse(cursor);
  return Number.isNaN(at) ? null : at;
}

/** The account's messages since `cursor`, newest conversations first. */
export async function readMetaMessages(
  session: MetaSession,
  inbox: MetaInbox,
  account: MetaAccount,
  cursor: string | null,
  options: { maxPages?: number; now: Date },
): Promise<MessagesRead> {
  const since = cursorTime(cursor);
  const budget = new PageBudget(options.maxPages ?? DEFAULT_MESSAGE_PAGES);
  const params = { platform: inbox.platformParam, fields: inbox.conversationFields };
  const path = `${account.inboxId}/conversations`;

  // The conversations active since the cursor, each with its newest messages embedded. Graph
  // lists them most recently active first: one older than the cursor ends the list. More of them
  // active since the last read than the page cap reaches (hundreds within minutes) would be left
  // unread; the cap guards against a runaway paging link.
  const active: { conversation: GraphObject; lastAt: number }[] = [];
  if (!budget.take()) return { messages: [], cursor };
  let answer: unknown = await session.graph.get(path, params);
  for (;;) {
    let reachedOlder = false;
    for (const conversation of pageData(answer)) {
      const lastAt = lastActivity(conversation, options.now);
      if (since !== null && lastAt < since) reachedOlder = true;
      else active.push({ conversation, lastAt });
    }
    const after = nextCursor(answer, 'required');
    if (reachedOlder || !after || !budget.take()) break;
    answer = await session.graph.get(path, { ...params, after });
  }

  // A conversation with more new messages than its embedded page costs calls of its own: the
  // least recently active are read first, so that when the calls run out, everything up to the
  // last conversation read in full is in and the cursor stops there; the next read goes on.
  return readActiveConversations(active, since, cursor, async (conversation) => {
    const counterpart = counterpartOf(conversation, account);
    const { raws, whole } = await conversationMessages(session, conversation, since, budget);
    return { messages: raws.map((raw) => toMessage(raw, counterpart, inbox, account, options.now)).filter((m): m is NetworkMessage => m !== null), whole };
  });
}

/** A Graph time in ms, or null when it is missing or unreadable. */
function timeOf(value: unknown): number | null {
  const at = networkDate(value, new Date(Number.NaN)).getTime();
  return Number.isNaN(at) ? null : at;
}

/**
 * When the conversation last had a message: its updated_time, else its newest embedded message
 * (the Instagram read the catalogue names asks for no updated_time); unknown: now, so it is read.
 */
function lastActivity(conversation: GraphObject, now: Date): number {
  const updated = timeOf(conversation.updated_time);
  if (updated !== null) return updated;
  const known = pageData(conversation.messages)
    .map((m) => timeOf(m.created_time))
    .filter((t): t is number => t !== null);
  return known.length ? Math.max(...known) : now.getTime();
}

/**
 * The conversation's messages not older than `since`: the page the conversations edge embeds
 * (the newest), and while every message on it is newer than the cursor, the pages after it from
 * the conversation's own messages edge. A first read (no cursor) takes the embedded page only:
 * the recent messages, not every conversation's whole history. `whole`: false when the calls
 * ran out before the last page needed.
 */
async function conversationMessages(
  session: MetaSession,
  conversation: GraphObject,
  since: number | null,
  budget: PageBudget,
): Promise<{ raws: GraphObject[]; whole: boolean }> {
  const raws: GraphObject[] = [];
  const conversationId = graphId(conversation.id);
  let page: unknown = conversation.messages;
  for (;;) {
    let older = false;
    for (const raw of pageData(page)) {
      const at = timeOf(raw.created_time);
      if (since !== null && at !== null && at < since) {
        older = true;
        continue;
      }
      raws.push(raw);
    }
    const after = nextCursor(page, 'required');
    if (since === null || older || !after || !conversationId) return { raws, whole: true };
    if (!budget.take()) return { raws, whole: false };
    page = await session.graph.get(`${conversationId}/messages`, { fields: MESSAGE_FIELDS, after });
  }
}

const isAccount = (person: GraphObject | undefined, account: MetaAccount): boolean => {
  if (!person) return false;
  const id = graphId(person.id);
  if (id !== null && account.ids.includes(id)) return true;
  const username = graphText(person.username);
  return username !== null && account.username !== null && bare(username) === bare(account.username);
};

const bare = (name: string) => name.replace(/^@/, '').toLowerCase();

/** The person the account talks with: the participant who is not the account. */
function counterpartOf(conversation: GraphObject, account: MetaAccount): GraphObject | null {
  const people = pageData(conversation.participants);
  return people.find((p) => graphId(p.id) !== null && !isAccount(p, account)) ?? null;
}

function toMessage(raw: GraphObject, counterpart: GraphObject | null, inbox: MetaInbox, account: MetaAccount, now: Date): NetworkMessage | null {
  const id = graphId(raw.id);
  if (!id) return null;
  const from = (raw.from ?? undefined) as GraphObject | undefined;
  const fromAccount = isAccount(from, account);
  const to = pageData(raw.to)[0];
  // The participants name the person; a message names them too (its sender, or its recipient).
  const counterpartId = graphId(counterpart?.id) ?? (fromAccount ? graphId(to?.id) : graphId(from?.id));
  if (!counterpartId) return null;
  const authorId = graphId(from?.id) ?? (fromAccount ? (account.ids[0] ?? account.senderId) : counterpartId);
  const username = graphText(from?.username);
  return {
    id,
    conversationId: counterpartId,
    counterpartId,
    authorId,
    authorName: graphText(from?.name) ?? username ?? authorId,
    authorHandle: inbox.handles && username ? `@${username}` : null,
    text: typeof raw.message === 'string' ? raw.message : '',
    attachmentUrl: imageOf(raw.attachments),
    createdAt: networkDate(raw.created_time, now),
    fromAccount,
  };
}

/** The first image the message carries: its image_data url, or the file of an image type. */
function imageOf(attachments: unknown): string | null {
  for (const attachment of pageData(attachments)) {
    const image = graphText((attachment.image_data as GraphObject | undefined)?.url);
    if (image) return image;
    const mime = graphText(attachment.mime_type);
    const file = graphText(attachment.file_url);
    if (file && mime?.startsWith('image/')) return file;
  }
  return null;
}

/**
 * Sends an answer to the person: the image first (when there is one), then the text, each its
 * own message (the Send API takes text or one attachment). The image goes first because it is
 * the call Meta refuses more often (it fetches the URL, checks type and size): refused, nothing
 * was sent and the answer can be sent again as a whole. The id returned is the text's (the
 * message the echo carries with the answer's words), or the image's when there is no text.
 */
export async function sendMetaMessage(
  session: MetaSession,
  inbox: MetaInbox,
  account: MetaAccount,
  recipientId: string,
  message: { text: string; imageUrl?: string | null },
): Promise<{ id: string }> {
  const path = `${account.senderId}/messages`;
  const envelope = { recipient: { id: recipientId }, ...(inbox.messagingType ? { messaging_type: 'RESPONSE' } : {}) };
  let id: string | null = null;
  if (message.imageUrl) {
    const payload = { url: message.imageUrl, ...(inbox.reusableFlag ? { is_reusable: false } : {}) };
    const sent = await session.postJson(path, { ...envelope, message: { attachment: { type: 'image', payload } } });
    id = requireId(sent, 'message_id', inbox.name);
  }
  if (message.text || !id) {
    const sent = await session.postJson(path, { ...envelope, message: { text: message.text } });
    id = requireId(sent, 'message_id', inbox.name);
  }
  return { id };
}
