// The conversations port: how Herald reads an account's direct messages and reviews and
// answers them, and how a network's webhook payload becomes the same items a read returns. One
// client per network that offers them (in that network's folder, listed in
// conversations-clients.ts) plus the sandbox; what each network offers is its catalogue entry's
// `messages` and `reviews` (catalogue/conversations.ts), and a client implements exactly what
// that entry names (conversations-clients.test.ts checks it).
//
// A read and a push give the same `NetworkMessage`/`NetworkReview` (the same network id), so the
// inbox stores them as one row whichever arrives first (server/inbox/store-conversations.ts).
// A failure of the whole connection is thrown as a PlatformError (TokenExpiredError for a
// refused token), as the publisher, insights and comments do.
import type { Platform } from '@/server/shared/platforms';
import type { InsightsContext } from './insights';
import type { PublishableConnection } from './publisher';

/** One direct message as the network returned it. */
export interface NetworkMessage {
  /** The message's id on the network (unique for the account). */
  id: string;
  /** The network's conversation id: what an answer is sent to (with `counterpartId`). */
  conversationId: string;
  /** The other person of the conversation (the recipient of an answer): their network id. */
  counterpartId: string;
  /** The sender's network id. */
  authorId: string;
  /** The sender's name; the network id where the network names nobody (a webhook payload). */
  authorName: string;
  authorHandle: string | null;
  authorAvatarUrl?: string | null;
  text: string;
  /** An image the message carries (the network's address of it). */
  attachmentUrl?: string | null;
  createdAt: Date;
  /** Sent by the account itself (from Herald or on the network). */
  fromAccount: boolean;
}

/** One review of the account (a location, a Page). */
export interface NetworkReview {
  /** The review's id on the network (Google's review name's last segment, Facebook's story id). */
  id: string;
  authorName: string;
  authorAvatarUrl?: string | null;
  /** 1 to 5 stars (Google); null where the network rates otherwise. */
  rating: number | null;
  /** Facebook: recommends (true) or not (false); null elsewhere. */
  recommends: boolean | null;
  /** The review's text; empty for a rating with no words. */
  text: string;
  createdAt: Date;
  /** When the reviewer last changed it, where the network says. */
  updatedAt?: Date | null;
  /** The account's public answer, where there is one. */
  reply: { id: string; text: string; updatedAt: Date } | null;
  permalink: string | null;
}

export interface MessagesRead {
  messages: NetworkMessage[];
  /** Where the next read starts, in the network's terms (an update id, a cursor); stored on the account. */
  cursor: string | null;
}

export interface ConversationsContext extends InsightsContext {
  /** Stable across retries of one answer (its id in Herald), for networks with idempotency of their own. */
  idempotencyKey?: string;
  /** Where a demo network keeps its answers to reviews (demo accounts only; lent by the inbox). */
  sandboxAnswers?: SandboxAnswers;
}

/** The answers a demo network keeps for a demo account's reviews (an empty text: taken down). */
export interface SandboxAnswers {
  list(connectionId: string): Promise<Map<string, { id: string; text: string; at: Date }>>;
  put(connectionId: string, reviewId: string, answer: { id: string; text: string }): Promise<void>;
}

export interface MessagesClient {
  /** The `source` of what it reads: the network's API, or `sandbox`. */
  source: string;
  /**
   * The account's messages since `cursor` (null: the recent ones, as far back as the network
   * offers), newest conversations first; the client pages as far as it needs.
   */
  readMessages(connection: PublishableConnection, cursor: string | null, ctx: ConversationsContext): Promise<MessagesRead>;
  /** Answers a conversation, with an image where the catalogue says the network takes one. */
  sendMessage(
    connection: PublishableConnection,
    to: { conversationId: string; counterpartId: string },
    message: { text: string; imageUrl?: string | null },
    ctx: ConversationsContext,
  ): Promise<{ id: string }>;
}

export interface ReviewsClient {
  source: string;
  /** Every review of the account the network lists (newest first), with the account's answers. */
  readReviews(connection: PublishableConnection, ctx: ConversationsContext): Promise<NetworkReview[]>;
  /** Answers a review, or replaces the answer (`replyId` set: the one to change, where the network addresses it). */
  replyToReview(
    connection: PublishableConnection,
    review: { reviewId: string; replyId: string | null },
    text: string,
    ctx: ConversationsContext,
  ): Promise<{ id: string }>;
  /** Takes the answer down. */
  deleteReviewReply(connection: PublishableConnection, review: { reviewId: string; replyId: string }, ctx: ConversationsContext): Promise<void>;
}

export type MessagesClients = Partial<Record<Platform, MessagesClient>>;
export type ReviewsClients = Partial<Record<Platform, ReviewsClient>>;

/**
 * What one webhook delivery of a network carries for one account: the account as the network
 * names it (a Page id, an Instagram account id, an X user id, a Telegram bot id, a Google
 * location name), the platforms whose connections that id may be, and the items, shaped as a
 * read would return them. `readReviews`: the notification names a new or changed review without
 * carrying it (Google): the account's reviews are read at once.
 */
export interface PushedItems {
  accountId: string;
  platforms: Platform[];
  messages: NetworkMessage[];
  reviews: NetworkReview[];
  readReviews?: boolean;
}

/**
 * Reads the conversations active since the last read, least recently active first, until the
 * network's call budget runs out: everything up to the last conversation read in full is in,
 * and the cursor (the ISO time of the newest message read, or where the reading stopped) says
 * where the next read goes on. `readOne` says whether it read a conversation whole. Returned
 * newest conversations first, as the port asks. (Meta's and Bluesky's clients read this way.)
 */
export async function readActiveConversations<C>(
  active: { conversation: C; lastAt: number }[],
  since: number | null,
  cursor: string | null,
  readOne: (conversation: C) => Promise<{ messages: NetworkMessage[]; whole: boolean }>,
): Promise<MessagesRead> {
  active.sort((a, b) => a.lastAt - b.lastAt);
  const read: NetworkMessage[][] = [];
  let newest = since;
  let settled: number | null = null;
  let complete = true;
  for (const { conversation, lastAt } of active) {
    const { messages, whole } = await readOne(conversation);
    read.push(messages);
    for (const m of messages) if (newest === null || m.createdAt.getTime() > newest) newest = m.createdAt.getTime();
    if (!whole) {
      complete = false;
      break;
    }
    settled = lastAt;
  }
  const until = complete ? newest : (settled ?? since);
  return { messages: read.reverse().flat(), cursor: until === null ? cursor : new Date(until).toISOString() };
}
