// Sandbox direct messages and reviews: what a demo account's network would hold, so the inbox's
// messages and reviews are alive without a network. Each demo account gets the same script,
// timed from when it was connected: a few conversations (one older than Meta's 24-hour window,
// one the account already answered on the network), and reviews (an old one answered, a fresh
// one-star waiting, more arriving over the next day). A demo account offers exactly what its
// network offers (the catalogue's `messages` and `reviews`): a demo Bluesky account has
// messages but no reviews, a demo LinkedIn page neither.
//
// A demo network keeps what it was sent the way a real one does: a review's answer is kept by
// the store the inbox lends (`ctx.sandboxAnswers`, backed by the database), so reading the
// reviews again returns the answer, changed or taken down. Messages sent to it are accepted
// and not read back (a real network's read would return them; the inbox keeps Herald's copy).
import { createHash } from 'node:crypto';
import type { Platform } from '@/server/shared/platforms';
import { messagesOf, reviewsOf } from '../catalogue';
import { offered } from '../catalogue/conversations';
import type { ConversationsContext, MessagesClient, NetworkMessage, NetworkReview, ReviewsClient } from '../conversations';
import { PlatformError, TokenExpiredError } from '../publisher';

const MINUTE = 60_000;

interface Voice {
  key: string;
  name: string;
  handle: string;
}

const VOICES: Record<string, Voice> = {
  maya: { key: 'maya', name: 'Maya Chen', handle: 'mayachen' },
  tom: { key: 'tom', name: 'Tom Okafor', handle: 'tomokafor' },
  lena: { key: 'lena', name: 'Lena Fischer', handle: 'lena.fischer' },
  sam: { key: 'sam', name: 'Sam Rivera', handle: 'samrivera' },
  priya: { key: 'priya', name: 'Priya Nair', handle: 'priyanair' },
};

/** Messages by conversation partner and minutes from the connection (negative: before it); `own`: the account wrote it. */
const MESSAGES: { key: string; voice: string; minutes: number; text: string; own?: boolean }[] = [
  { key: 'gift', voice: 'maya', minutes: -50 * 60, text: 'Hi! Do you sell gift cards? It’s for my sister’s birthday.' },
  { key: 'tasting', voice: 'tom', minutes: -20, text: 'Is the Saturday tasting still on? 🍷' },
  { key: 'tasting-answer', voice: 'tom', minutes: -12, text: 'Yes! 6pm as usual, see you there.', own: true },
  { key: 'table', voice: 'lena', minutes: -6, text: 'Can I book a table for six on Friday evening?' },
  { key: 'parking', voice: 'lena', minutes: -4, text: 'Also, is there parking nearby?' },
  { key: 'latte', voice: 'priya', minutes: 45, text: 'Your oat latte is the best in town ☕ Do you sell the beans?' },
  { key: 'card', voice: 'sam', minutes: 26 * 60, text: 'I lost my loyalty card, can you help me get my stamps back?' },
];

/** Reviews by minutes from the connection; `answer` is the account's answer already on the network. */
const REVIEWS: { key: string; voice: string; minutes: number; stars: number; text: string; answer?: { minutes: number; text: string } }[] = [
  {
    key: 'flat-white',
    voice: 'maya',
    minutes: -10 * 24 * 60,
    stars: 5,
    text: 'Best flat white in the neighbourhood, and the staff remember your order.',
    answer: { minutes: -9 * 24 * 60, text: 'Thank you Maya! See you soon.' },
  },
  { key: 'cold', voice: 'tom', minutes: -2 * 60, stars: 1, text: 'Waited forty minutes for a cold flat white. Not coming back.' },
  { key: 'noisy', voice: 'lena', minutes: 3 * 60, stars: 4, text: 'Lovely staff and great cake, a little noisy at lunch.' },
  { key: 'prices', voice: 'sam', minutes: 30 * 60, stars: 2, text: 'Prices went up again this month.' },
];

const hashId = (prefix: string, ...parts: string[]) => `${prefix}${createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 16)}`;

function failIfExpired(connection: { sandboxBehavior: string | null }): void {
  if (connection.sandboxBehavior === 'expired') throw new TokenExpiredError('Error validating access token: Session has expired (code 190, subcode 463)');
}

function refuseIfRejecting(connection: { sandboxBehavior: string | null }): void {
  failIfExpired(connection);
  if (connection.sandboxBehavior === 'rejects_posts')
    throw new PlatformError('(#200) The demo account refuses every action (its behaviour is "rejects posts")', { status: 403 });
}

/** A demo account without a connection time (a test's bare connection) starts its script at `now`. */
const anchorOf = (connection: { connectedAt?: Date }, now: Date) => (connection.connectedAt ?? now).getTime();

/** The demo conversations of one account as of `now`. */
export function sandboxMessages(connection: { id: string; externalId: string; connectedAt?: Date }, now: Date): NetworkMessage[] {
  const anchor = anchorOf(connection, now);
  return MESSAGES.filter((m) => anchor + m.minutes * MINUTE <= now.getTime()).map((m) => {
    const voice = VOICES[m.voice]!;
    const counterpart = `sbx-user-${voice.key}`;
    return {
      id: hashId('sbx-m-', connection.id, m.key),
      conversationId: counterpart,
      counterpartId: counterpart,
      authorId: m.own ? connection.externalId : counterpart,
      authorName: m.own ? connection.externalId : voice.name,
      authorHandle: m.own ? null : `@${voice.handle}`,
      text: m.text,
      createdAt: new Date(anchor + m.minutes * MINUTE),
      fromAccount: Boolean(m.own),
    };
  });
}

/** The demo reviews of one account as of `now`, with the answers its demo network keeps. */
export async function sandboxReviews(
  platform: Platform,
  connection: { id: string; connectedAt?: Date },
  now: Date,
  ctx: ConversationsContext,
): Promise<NetworkReview[]> {
  const anchor = anchorOf(connection, now);
  const kept = (await ctx.sandboxAnswers?.list(connection.id)) ?? new Map();
  const recommendations = reviewsOf(platform).scale === 'recommendation';
  return REVIEWS.filter((r) => anchor + r.minutes * MINUTE <= now.getTime())
    .map((r) => {
      const id = hashId('sbx-rv-', connection.id, r.key);
      const answer = kept.get(id) ?? (r.answer ? { id: `${id}/reply`, text: r.answer.text, at: new Date(anchor + r.answer.minutes * MINUTE) } : null);
      return {
        id,
        authorName: VOICES[r.voice]!.name,
        rating: recommendations ? null : r.stars,
        recommends: recommendations ? r.stars >= 4 : null,
        text: r.text,
        createdAt: new Date(anchor + r.minutes * MINUTE),
        reply: answer && answer.text ? { id: answer.id, text: answer.text, updatedAt: answer.at } : null,
        // Never the real network's address: a demo review has none.
        permalink: null,
      };
    })
    .reverse();
}

/** The demo messages client of one network, or null where the network has none. */
export function sandboxMessagesClient(platform: Platform): MessagesClient | null {
  const messages = messagesOf(platform);
  if (!offered(messages.read)) return null;
  return {
    source: 'sandbox',
    async readMessages(connection, _cursor, { now }) {
      failIfExpired(connection);
      return { messages: sandboxMessages(connection, now), cursor: null };
    },
    async sendMessage(connection, to, message, ctx) {
      refuseIfRejecting(connection);
      return { id: hashId('sbx-m-out-', connection.id, to.conversationId, ctx.idempotencyKey ?? message.text) };
    },
  };
}

/** The demo reviews client of one network, or null where the network has none. */
export function sandboxReviewsClient(platform: Platform): ReviewsClient | null {
  const reviews = reviewsOf(platform);
  if (!offered(reviews.read)) return null;
  return {
    source: 'sandbox',
    async readReviews(connection, ctx) {
      failIfExpired(connection);
      return sandboxReviews(platform, connection, ctx.now, ctx);
    },
    async replyToReview(connection, review, text, ctx) {
      refuseIfRejecting(connection);
      const id = review.replyId ?? (reviews.scale === 'stars' ? `${review.reviewId}/reply` : hashId('sbx-c-', review.reviewId, ctx.idempotencyKey ?? text));
      await ctx.sandboxAnswers?.put(connection.id, review.reviewId, { id, text });
      return { id };
    },
    async deleteReviewReply(connection, review, ctx) {
      refuseIfRejecting(connection);
      // The scripted answer is taken down too: kept as an empty answer.
      await ctx.sandboxAnswers?.put(connection.id, review.reviewId, { id: review.replyId, text: '' });
    },
  };
}
