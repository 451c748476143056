// Collecting comments: which published posts are due a read, and reading one account's due
// posts through its network's comments client (server/platforms/comments.ts).
//
// Due: a published target whose last read is older than the interval its age calls for
// (COMMENTS_SCHEDULE: often while a post is young, rarely after a month, never after
// COMMENTS_MAX_AGE_DAYS except on demand). The sweep asks one statement for the accounts with
// due posts and queues one inbox.collect per account.
//
// Writing: one account's due posts are read first, then compared with what is stored in one
// statement, and only the difference is written, in one transaction: new items inserted
// (ON CONFLICT DO NOTHING, so a retried job or two overlapping runs write each once), an
// edited or hidden item updated in place, an item missing from a complete read marked
// deleted, every read post's checkedAt moved. An account with nothing new costs the same few
// statements however many posts it has (bench/inbox.ts counts them).
//
// A refused token marks the account inactive and tells the team (connection.error), as a
// publish does; any other failure (network down, a rate limit not waited out) is recorded on
// the account verbatim and the sweep leaves it alone for COMMENTS_RETRY_MINUTES.
import { Prisma } from '@/server/generated/prisma/client';
import { db } from '@/server/db/client';
import { getJobs } from '@/server/jobs';
import { log } from '@/server/observability/log';
import { recordEvent, recordEvents } from '@/server/events/record-event';
import { kickOutboxDrain } from '@/server/events/kick-outbox';
import { TokenExpiredError } from '@/server/platforms/publisher';
import { commentsClientFor, platformsWithComments } from '@/server/platforms/comments-clients';
import type { CommentsClient, NetworkComment } from '@/server/platforms/comments';
import { PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
import { connectionTokens, publishableConnection } from '@/server/posts/delivery/connection-tokens';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';

/** How often a post's comments are read, by its age: the first matching row applies. */
export const COMMENTS_SCHEDULE: readonly { maxAgeHours: number; everyMinutes: number }[] = [
  { maxAgeHours: 48, everyMinutes: 15 },
  { maxAgeHours: 7 * 24, everyMinutes: 60 },
  { maxAgeHours: 30 * 24, everyMinutes: 6 * 60 },
  { maxAgeHours: 90 * 24, everyMinutes: 24 * 60 },
];
/** Older posts are read only on demand. */
export const COMMENTS_MAX_AGE_DAYS = 90;
/** An account whose collection failed is left alone this long. */
export const COMMENTS_RETRY_MINUTES = 30;
/** Posts read per job (the rest are due again at the next sweep). */
const MAX_TARGETS_PER_RUN = 200;

/** Demo platforms whose catalogue offers reading comments (a demo account mirrors its network). */
const readablePlatforms = (): Platform[] => PLATFORMS.filter((p) => 'call' in PLATFORM_CATALOGUE[p].comments.read);

/** The schedule as SQL: the interval after which a target published at `published` is due again. */
function intervalSql(published: Prisma.Sql, now: Date): Prisma.Sql {
  const cases = COMMENTS_SCHEDULE.map(
    (row) => Prisma.sql`WHEN ${published} > ${now}::timestamp - make_interval(hours => ${row.maxAgeHours}) THEN make_interval(mins => ${row.everyMinutes})`,
  );
  return Prisma.sql`CASE ${Prisma.join(cases, ' ')} ELSE make_interval(days => 36500) END`;
}

/** Where an account's comments are read: demo accounts of a readable network, live accounts with a client. */
function readableConnectionSql(): Prisma.Sql {
  return Prisma.sql`c.status = 'active'
    AND ((c.provider = 'sandbox' AND c.platform = ANY(${readablePlatforms()}::text[]))
      OR (c.provider <> 'sandbox' AND c.platform = ANY(${platformsWithComments()}::text[])))`;
}

/** Cron: one inbox.collect per account with posts due a read (accounts that just failed wait). */
export async function sweepDueComments(now: Date = new Date()): Promise<{ connections: number }> {
  const backoff = new Date(now.getTime() - COMMENTS_RETRY_MINUTES * 60_000);
  const oldest = new Date(now.getTime() - COMMENTS_MAX_AGE_DAYS * 86_400_000);
  const rows = await db.$queryRaw<{ connectionId: string }[]>`
    SELECT DISTINCT t."connectionId" FROM "PostTarget" t
      JOIN "Connection" c ON c.id = t."connectionId"
     WHERE t.status = 'published' AND t."postedId" IS NOT NULL
       AND t."publishedAt" >= ${oldest} AND t."publishedAt" <= ${now}
       AND ${readableConnectionSql()}
       AND (c."commentsErrorAt" IS NULL OR c."commentsErrorAt" < ${backoff})
       AND (t."commentsCheckedAt" IS NULL OR t."commentsCheckedAt" + ${intervalSql(Prisma.sql`t."publishedAt"`, now)} <= ${now})`;
  if (rows.length) {
    await getJobs().enqueueMany(
      'inbox.collect',
      rows.map((r) => ({ payload: { connectionId: r.connectionId }, key: `inbox-collect:${r.connectionId}` })),
    );
  }
  return { connections: rows.length };
}

interface DueTarget {
  id: string;
  postId: string;
  postedId: string;
  publishedAt: Date;
}

async function dueTargetsOf(connectionId: string, now: Date, targetIds?: string[]): Promise<DueTarget[]> {
  if (targetIds) {
    return db.$queryRaw<DueTarget[]>`
      SELECT id, "postId", "postedId", "publishedAt" FROM "PostTarget"
       WHERE "connectionId" = ${connectionId}::uuid AND id = ANY(${targetIds}::uuid[])
         AND status = 'published' AND "postedId" IS NOT NULL AND "publishedAt" IS NOT NULL`;
  }
  const oldest = new Date(now.getTime() - COMMENTS_MAX_AGE_DAYS * 86_400_000);
  return db.$queryRaw<DueTarget[]>`
    SELECT t.id, t."postId", t."postedId", t."publishedAt" FROM "PostTarget" t
     WHERE t."connectionId" = ${connectionId}::uuid AND t.status = 'published' AND t."postedId" IS NOT NULL
       AND t."publishedAt" >= ${oldest} AND t."publishedAt" <= ${now}
       AND (t."commentsCheckedAt" IS NULL OR t."commentsCheckedAt" + ${intervalSql(Prisma.sql`t."publishedAt"`, now)} <= ${now})
     ORDER BY t."commentsCheckedAt" NULLS FIRST, t."publishedAt" DESC
     LIMIT ${MAX_TARGETS_PER_RUN}`;
}

export interface CollectCommentsResult {
  connectionId: string;
  ok: boolean;
  /** Posts read. */
  posts: number;
  inserted: number;
  updated: number;
  deleted: number;
  error?: string;
}

export interface CollectCommentsOptions {
  /** On demand: read these targets now, whatever the schedule says. */
  targetIds?: string[];
  now?: Date;
  /** Replaces the account's client (tests point a live client at a local server). */
  client?: CommentsClient;
}

interface StoredItem {
  id: string;
  targetId: string;
  externalId: string | null;
  text: string;
  hidden: boolean;
  deletedAt: Date | null;
  fromAccount: boolean;
  replyState: string | null;
  inReplyToId: string | null;
  repliedAt: Date | null;
}

/** The network id of each comment's top-level comment, from what was read and what is stored. */
function threadRoots(comments: readonly NetworkComment[], storedParents: Map<string, string | null>): Map<string, string> {
  const parent = new Map(storedParents);
  for (const c of comments) parent.set(c.id, c.parentId);
  const roots = new Map<string, string>();
  for (const c of comments) {
    let at = c.id;
    for (let hops = 0; hops < 50; hops++) {
      const up = parent.get(at);
      if (!up) break;
      at = up;
    }
    roots.set(c.id, at);
  }
  return roots;
}

/** Reads one account's due (or asked-for) posts and stores what changed. */
export async function collectConnectionComments(connectionId: string, options: CollectCommentsOptions = {}): Promise<CollectCommentsResult> {
  const now = options.now ?? new Date();
  const result: CollectCommentsResult = { connectionId, ok: true, posts: 0, inserted: 0, updated: 0, deleted: 0 };
  const connection = await db.connection.findUnique({ where: { id: connectionId } });
  if (!connection || connection.status !== 'active') return result;
  const client = options.client ?? commentsClientFor({ provider: connection.provider, platform: connection.platform as Platform });
  if (!client) return result;
  const targets = await dueTargetsOf(connectionId, now, options.targetIds);
  if (!targets.length) return result;

  // Read every due post first: the network calls happen outside any transaction.
  const publishable = publishableConnection(connection);
  const reads = new Map<string, { comments: NetworkComment[]; complete: boolean } | null>();
  try {
    for (const target of targets) {
      const answer = await client.readComments(publishable, { postedId: target.postedId, publishedAt: target.publishedAt }, { tokens: connectionTokens, now });
      reads.set(target.id, answer.ok ? { comments: answer.comments, complete: answer.complete } : null);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn('inbox', `reading the comments of connection ${connectionId} failed`, error);
    await recordFailure(connection, message, error instanceof TokenExpiredError, now);
    // What was read before the failure is still stored below; the rest is due again.
    if (!reads.size) return { ...result, ok: false, error: message };
    result.ok = false;
    result.error = message;
  }
  result.posts = reads.size;

  const readTargetIds = [...reads.keys()];
  const stored = await db.inboxItem.findMany({
    where: { targetId: { in: readTargetIds } },
    select: {
      id: true,
      targetId: true,
      externalId: true,
      text: true,
      hidden: true,
      deletedAt: true,
      fromAccount: true,
      replyState: true,
      inReplyToId: true,
      repliedAt: true,
      parentExternalId: true,
    },
  });
  const byExternal = new Map<string, StoredItem>();
  const storedParents = new Map<string, string | null>();
  for (const s of stored) {
    if (s.externalId) {
      byExternal.set(s.externalId, s);
      storedParents.set(s.externalId, s.parentExternalId);
    }
  }

  const inserts: Prisma.InboxItemCreateManyInput[] = [];
  const edits: { id: string; text: string; hidden: boolean; editedAt: Date | null }[] = [];
  const adopted: { id: string; externalId: string; permalink: string | null }[] = [];
  const answered = new Set<string>();
  const deleted: string[] = [];
  const targetOf = new Map(targets.map((t) => [t.id, t]));

  for (const [targetId, read] of reads) {
    if (!read) continue;
    const target = targetOf.get(targetId)!;
    const roots = threadRoots(read.comments, storedParents);
    const seen = new Set<string>();
    for (const c of read.comments) {
      seen.add(c.id);
      const known = byExternal.get(c.id);
      if (c.fromAccount && c.parentId) {
        const parent = byExternal.get(c.parentId);
        if (parent && !parent.repliedAt) answered.add(parent.id);
      }
      if (known) {
        if (known.text !== c.text || known.hidden !== Boolean(c.hidden) || known.deletedAt) {
          edits.push({ id: known.id, text: c.text, hidden: Boolean(c.hidden), editedAt: known.text !== c.text ? (c.editedAt ?? now) : null });
        }
        continue;
      }
      // A reply Herald is sending (its id not recorded yet) read back already: the same row.
      const sending = c.fromAccount
        ? stored.find((s) => s.targetId === targetId && s.externalId === null && s.replyState === 'sending' && s.text === c.text)
        : undefined;
      if (sending) {
        adopted.push({ id: sending.id, externalId: c.id, permalink: c.permalink });
        continue;
      }
      inserts.push({
        workspaceId: connection.workspaceId,
        connectionId,
        targetId,
        postId: target.postId,
        platform: connection.platform,
        kind: 'comment',
        externalId: c.id,
        parentExternalId: c.parentId,
        threadExternalId: roots.get(c.id) ?? c.id,
        authorExternalId: c.authorId,
        authorName: c.authorName,
        authorHandle: c.authorHandle,
        authorAvatarUrl: c.authorAvatarUrl ?? null,
        text: c.text,
        permalink: c.permalink,
        networkCreatedAt: c.createdAt,
        editedAt: c.editedAt ?? null,
        hidden: Boolean(c.hidden),
        fromAccount: c.fromAccount,
        // The account's own comments need no answer.
        status: c.fromAccount ? 'done' : 'open',
        repliedAt: null,
        source: client.source,
        collectedAt: now,
      });
    }
    if (read.complete) {
      for (const s of stored) {
        if (s.targetId === targetId && s.externalId && !s.deletedAt && !seen.has(s.externalId)) deleted.push(s.id);
      }
    }
  }

  await db.$transaction(async (tx) => {
    if (inserts.length) {
      const written = await tx.inboxItem.createManyAndReturn({
        data: inserts,
        skipDuplicates: true,
        select: {
          id: true,
          postId: true,
          targetId: true,
          platform: true,
          fromAccount: true,
          parentExternalId: true,
          externalId: true,
          authorName: true,
          text: true,
          networkCreatedAt: true,
        },
      });
      result.inserted = written.length;
      const publishedAt = new Map(targets.map((t) => [t.id, t.publishedAt]));
      await recordEvents(
        tx,
        written
          .filter((w) => !w.fromAccount)
          .map((item) => ({
            workspaceId: connection.workspaceId,
            type: 'comment.received' as const,
            data: {
              itemId: item.id,
              postId: item.postId,
              connectionId,
              platform: item.platform,
              externalId: item.externalId!,
              parentExternalId: item.parentExternalId,
              authorName: item.authorName,
              text: item.text,
              createdAt: item.networkCreatedAt.toISOString(),
              postPublishedAt: publishedAt.get(item.targetId)!.toISOString(),
            },
          })),
      );
    }
    if (edits.length) {
      result.updated += await tx.$executeRaw`
        UPDATE "InboxItem" i SET text = v.text, hidden = v.hidden, "editedAt" = COALESCE(v.edited, i."editedAt"),
               "deletedAt" = NULL, "collectedAt" = ${now}, "updatedAt" = now()
          FROM unnest(${edits.map((e) => e.id)}::uuid[], ${edits.map((e) => e.text)}::text[], ${edits.map((e) => e.hidden)}::bool[],
                      ${edits.map((e) => e.editedAt)}::timestamp[]) AS v(id, text, hidden, edited)
         WHERE i.id = v.id`;
    }
    for (const a of adopted) {
      await tx.inboxItem.updateMany({
        where: { id: a.id, externalId: null },
        data: { externalId: a.externalId, permalink: a.permalink, replyState: 'sent', collectedAt: now },
      });
    }
    if (answered.size) {
      await tx.inboxItem.updateMany({ where: { id: { in: [...answered] }, repliedAt: null }, data: { repliedAt: now } });
    }
    if (deleted.length) {
      result.deleted =
        await tx.$executeRaw`UPDATE "InboxItem" SET "deletedAt" = ${now}, "updatedAt" = now() WHERE id = ANY(${deleted}::uuid[]) AND "deletedAt" IS NULL`;
    }
    await tx.$executeRaw`UPDATE "PostTarget" SET "commentsCheckedAt" = ${now} WHERE id = ANY(${readTargetIds}::uuid[])`;
    if (result.ok)
      await tx.$executeRaw`UPDATE "Connection" SET "commentsCollectedAt" = ${now}, "commentsError" = NULL, "commentsErrorAt" = NULL WHERE id = ${connectionId}::uuid`;
  });
  if (result.inserted) void kickOutboxDrain();
  return result;
}

async function recordFailure(connection: { id: string; workspaceId: string; platform: string; status: string }, message: string, expired: boolean, now: Date) {
  await db.$transaction(async (tx) => {
    await tx.connection.update({
      where: { id: connection.id },
      data: expired
        ? { commentsError: message, commentsErrorAt: now, status: 'inactive', lastError: message, lastErrorAt: now }
        : { commentsError: message, commentsErrorAt: now },
    });
    if (expired && connection.status === 'active') {
      await recordEvent(tx, {
        workspaceId: connection.workspaceId,
        type: 'connection.error',
        data: { connectionId: connection.id, platform: connection.platform, reason: message },
      });
    }
  });
  if (expired) void kickOutboxDrain();
}

/** "Check now": one inbox.collect per account of the workspaces, reading their recent posts whatever the schedule says. */
export async function queueCommentsCheck(workspaceIds: readonly string[], now = new Date()): Promise<{ connections: number }> {
  const oldest = new Date(now.getTime() - COMMENTS_MAX_AGE_DAYS * 86_400_000);
  const rows = await db.$queryRaw<{ connectionId: string; targetIds: string[] }[]>`
    SELECT t."connectionId", (array_agg(t.id ORDER BY t."publishedAt" DESC))[1:100] AS "targetIds"
      FROM "PostTarget" t JOIN "Connection" c ON c.id = t."connectionId"
     WHERE c."workspaceId" = ANY(${[...workspaceIds]}::uuid[]) AND ${readableConnectionSql()}
       AND t.status = 'published' AND t."postedId" IS NOT NULL AND t."publishedAt" >= ${oldest}
     GROUP BY t."connectionId"`;
  if (rows.length) {
    const minute = Math.floor(now.getTime() / 60_000);
    await getJobs().enqueueMany(
      'inbox.collect',
      rows.map((r) => ({ payload: { connectionId: r.connectionId, targetIds: r.targetIds }, key: `inbox-now:${r.connectionId}:${minute}` })),
    );
  }
  return { connections: rows.length };
}
