// Reading direct messages and reviews where the network does not push them, or while its push
// is missing: which accounts are due a read (the sweep, with inbox.sweep), and one account's
// read through its network's messages and reviews clients (server/platforms/conversations.ts),
// stored by the one function pushes use too (store-conversations.ts), so a message read here
// after its webhook arrived, or before, is one row.
//
// Due: every CONVERSATIONS_EVERY_MINUTES; an account whose network pushed an item within
// PUSH_TRUSTED_HOURS is read only every PUSHED_EVERY_MINUTES (a safety net for a missed push).
// A refused token marks the account inactive and tells the team, as a publish does; any other
// failure is recorded on the account verbatim and the sweep leaves it alone for
// CONVERSATIONS_RETRY_MINUTES.
import { Prisma } from '@/server/generated/prisma/client';
import { db } from '@/server/db/client';
import { getJobs } from '@/server/jobs';
import { log } from '@/server/observability/log';
import { recordEvent } from '@/server/events/record-event';
import { kickOutboxDrain } from '@/server/events/kick-outbox';
import { RetiredCallError, TokenExpiredError } from '@/server/platforms/publisher';
import type { MessagesClient, ReviewsClient } from '@/server/platforms/conversations';
import { messagesClientFor, platformsWithMessages, platformsWithReviews, reviewsClientFor } from '@/server/platforms/conversations-clients';
import { messagesOf, reviewsOf } from '@/server/platforms/catalogue';
import { offered } from '@/server/platforms/catalogue/conversations';
import { connectionTokens, publishableConnection } from '@/server/posts/delivery/connection-tokens';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import { sandboxAnswers } from './sandbox-answers';
import { healConversationsListedTwice, storeMessages, storeReviews } from './store-conversations';
import { queueCommentsCheck } from './collect-comments';

export const CONVERSATIONS_EVERY_MINUTES = 5;
export const PUSHED_EVERY_MINUTES = 60;
export const PUSH_TRUSTED_HOURS = 6;
export const CONVERSATIONS_RETRY_MINUTES = 30;

/** Platforms whose demo accounts have messages or reviews (a demo account mirrors its network). */
const demoPlatforms = (): Platform[] => PLATFORMS.filter((p) => offered(messagesOf(p).read) || offered(reviewsOf(p).read));

function readableSql(): Prisma.Sql {
  const live = [...new Set([...platformsWithMessages(), ...platformsWithReviews()])];
  return Prisma.sql`c.status = 'active'
    AND ((c.provider = 'sandbox' AND c.platform = ANY(${demoPlatforms()}::text[]))
      OR (c.provider <> 'sandbox' AND c.platform = ANY(${live}::text[])))`;
}

/** Cron (with inbox.sweep): one inbox.conversations per account due a read, after healConversationsListedTwice. */
export async function sweepDueConversations(now: Date = new Date()): Promise<{ connections: number; healed: number }> {
  // Conversations two writers at once both marked newest are single again first.
  const healed = await healConversationsListedTwice(db, now);
  const backoff = new Date(now.getTime() - CONVERSATIONS_RETRY_MINUTES * 60_000);
  const pushTrusted = new Date(now.getTime() - PUSH_TRUSTED_HOURS * 3_600_000);
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM "Connection" c
     WHERE ${readableSql()}
       AND (c."conversationsErrorAt" IS NULL OR c."conversationsErrorAt" < ${backoff})
       AND (c."conversationsCheckedAt" IS NULL OR c."conversationsCheckedAt" + make_interval(mins =>
             CASE WHEN c."pushReceivedAt" > ${pushTrusted} THEN ${PUSHED_EVERY_MINUTES}::int ELSE ${CONVERSATIONS_EVERY_MINUTES}::int END) <= ${now})`;
  if (rows.length) {
    const slot = Math.floor(now.getTime() / (CONVERSATIONS_EVERY_MINUTES * 60_000));
    await getJobs().enqueueMany(
      'inbox.conversations',
      rows.map((r) => ({ payload: { connectionId: r.id }, key: `inbox-conversations:${r.id}:${slot}` })),
    );
  }
  return { connections: rows.length, healed };
}

export interface CollectConversationsResult {
  connectionId: string;
  ok: boolean;
  messages: number;
  reviews: number;
  error?: string;
}

export interface CollectConversationsOptions {
  now?: Date;
  /** Read only these kinds (a Google notification asks for reviews only). */
  kinds?: readonly ('message' | 'review')[];
  /** Replace the account's clients (tests point a live client at a local server). */
  messagesClient?: MessagesClient | null;
  reviewsClient?: ReviewsClient | null;
}

/** Reads one account's new messages and its reviews, and stores them. */
export async function collectConversations(connectionId: string, options: CollectConversationsOptions = {}): Promise<CollectConversationsResult> {
  const now = options.now ?? new Date();
  const result: CollectConversationsResult = { connectionId, ok: true, messages: 0, reviews: 0 };
  const connection = await db.connection.findUnique({ where: { id: connectionId } });
  if (!connection || connection.status !== 'active') return result;
  const platform = connection.platform as Platform;
  const kinds = options.kinds ?? ['message', 'review'];
  const messages = kinds.includes('message') ? (options.messagesClient ?? messagesClientFor({ provider: connection.provider, platform })) : null;
  const reviews = kinds.includes('review') ? (options.reviewsClient ?? reviewsClientFor({ provider: connection.provider, platform })) : null;
  if (!messages && !reviews) return result;
  const publishable = publishableConnection(connection);
  const ctx = { tokens: connectionTokens, now, sandboxAnswers };
  try {
    // Each kind is read (outside any transaction), then stored in one.
    if (messages) {
      const read = await messages.readMessages(publishable, connection.messagesCursor, ctx);
      await db.$transaction(async (tx) => {
        const account = { workspaceId: connection.workspaceId, connectionId, platform, source: messages.source };
        result.messages = await storeMessages(tx, account, read.messages, now);
        if (read.cursor !== connection.messagesCursor) await tx.connection.update({ where: { id: connectionId }, data: { messagesCursor: read.cursor } });
      });
    }
    // A read the network retired (Graph's recommendations since v22.0) is skipped, not failed:
    // the reviews it pushes (Meta's ratings webhook) still arrive, and none is taken as deleted.
    const read = reviews ? await reviews.readReviews(publishable, ctx).catch(retiredAsNull(connectionId)) : null;
    if (reviews && read) {
      await db.$transaction(async (tx) => {
        const account = { workspaceId: connection.workspaceId, connectionId, platform, source: reviews.source };
        result.reviews = await storeReviews(tx, account, read, now, { complete: true });
      });
    }
    await db.connection.update({ where: { id: connectionId }, data: { conversationsCheckedAt: now, conversationsError: null, conversationsErrorAt: null } });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn('inbox', `reading the messages and reviews of connection ${connectionId} failed`, error);
    const expired = error instanceof TokenExpiredError;
    await db.$transaction(async (tx) => {
      await tx.connection.update({
        where: { id: connectionId },
        data: expired
          ? { conversationsError: message, conversationsErrorAt: now, status: 'inactive', lastError: message, lastErrorAt: now }
          : { conversationsError: message, conversationsErrorAt: now },
      });
      if (expired) {
        await recordEvent(tx, { workspaceId: connection.workspaceId, type: 'connection.error', data: { connectionId, platform, reason: message } });
      }
    });
    result.ok = false;
    result.error = message;
  }
  if (result.messages || result.reviews || !result.ok) void kickOutboxDrain();
  return result;
}

/** "Check now": one inbox.conversations per account of the workspaces with messages or reviews to read. */
export async function queueConversationsCheck(workspaceIds: readonly string[], now = new Date()): Promise<{ connectionIds: string[] }> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM "Connection" c WHERE c."workspaceId" = ANY(${[...workspaceIds]}::uuid[]) AND ${readableSql()}`;
  if (rows.length) {
    const minute = Math.floor(now.getTime() / 60_000);
    await getJobs().enqueueMany(
      'inbox.conversations',
      rows.map((r) => ({ payload: { connectionId: r.id }, key: `inbox-conversations-now:${r.id}:${minute}` })),
    );
  }
  return { connectionIds: rows.map((r) => r.id) };
}

/**
 * "Check now" (POST /inbox/check): the comments of the recent posts and the messages and
 * reviews of every account of the workspaces, read now; how many accounts are being read.
 */
export async function queueInboxCheck(workspaceIds: readonly string[]): Promise<{ connections: number }> {
  const [comments, conversations] = await Promise.all([queueCommentsCheck(workspaceIds), queueConversationsCheck(workspaceIds)]);
  return { connections: new Set([...comments.connectionIds, ...conversations.connectionIds]).size };
}

/** A RetiredCallError as null (logged once per process and account); any other error as it is. */
function retiredAsNull(connectionId: string) {
  return (error: unknown): null => {
    if (!(error instanceof RetiredCallError)) throw error;
    if (!retiredLogged.has(connectionId)) {
      retiredLogged.add(connectionId);
      log.info('inbox', `the network no longer serves the reviews read of connection ${connectionId}; its pushed reviews still arrive`, {
        reason: error.message,
      });
    }
    return null;
  };
}
const retiredLogged = new Set<string>();
