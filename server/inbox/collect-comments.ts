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
import { db, type Tx } from '@/server/db/client';
import { getJobs } from '@/server/jobs';
import { currentRequestId, log } from '@/server/observability/log';
import { recordEvent } from '@/server/events/record-event';
import { kickOutboxDrain } from '@/server/events/kick-outbox';
import { TokenExpiredError } from '@/server/platforms/publisher';
import { commentsClientFor, platformsWithComments } from '@/server/platforms/comments-clients';
import type { CommentsClient, NetworkComment } from '@/server/platforms/comments';
import { PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
import { connectionTokens, publishableConnection } from '@/server/posts/delivery/connection-tokens';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import { storableStrings } from '@/server/shared/schemas';

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
  targetId: string | null;
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
      // Text the database cannot hold (a NUL, a broken surrogate) is made storable, not refused: it would fail every read.
      reads.set(target.id, answer.ok ? { comments: answer.comments.map(storableStrings), complete: answer.complete } : null);
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

  const inserts: NewItem[] = [];
  const edits: { id: string; text: string; hidden: boolean | null; editedAt: Date | null }[] = [];
  const adopted: { id: string; externalId: string; permalink: string | null }[] = [];
  // Network ids of comments the account answered (on the network), not yet known as answered.
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
      if (c.fromAccount && c.parentId && !byExternal.get(c.parentId)?.repliedAt) answered.add(c.parentId);
      const known = byExternal.get(c.id);
      if (known) {
        // A network that does not say whether a comment is hidden leaves Herald's own hide alone.
        const hiddenChanged = c.hidden !== undefined && known.hidden !== c.hidden;
        if (known.text !== c.text || hiddenChanged || known.deletedAt) {
          edits.push({ id: known.id, text: c.text, hidden: c.hidden ?? null, editedAt: known.text !== c.text ? (c.editedAt ?? now) : null });
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
      inserts.push({ comment: c, targetId, postId: target.postId, threadExternalId: roots.get(c.id) ?? c.id, postPublishedAt: target.publishedAt });
    }
    if (read.complete) {
      for (const s of stored) {
        if (s.targetId === targetId && s.externalId && !s.deletedAt && !seen.has(s.externalId)) deleted.push(s.id);
      }
    }
  }

  // A first read of a busy account writes thousands of items: in one statement per batch, with
  // their events, so the transaction stays short.
  await db.$transaction(
    async (tx) => {
      for (let i = 0; i < inserts.length; i += INSERT_BATCH) {
        result.inserted += await insertItems(
          tx,
          { workspaceId: connection.workspaceId, connectionId, platform: connection.platform, source: client.source },
          inserts.slice(i, i + INSERT_BATCH),
          answered,
          now,
        );
      }
      if (edits.length) {
        result.updated += await tx.$executeRaw`
          UPDATE "InboxItem" i SET text = v.text, hidden = COALESCE(v.hidden, i.hidden), "editedAt" = COALESCE(v.edited, i."editedAt"),
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
      // Answered on the network: comments stored earlier (those inserted now carry it already).
      const earlier = [...answered].filter((id) => byExternal.has(id));
      if (earlier.length) {
        await tx.$executeRaw`UPDATE "InboxItem" SET "repliedAt" = ${now}, "updatedAt" = now()
                              WHERE "connectionId" = ${connectionId}::uuid AND "externalId" = ANY(${earlier}::text[]) AND "repliedAt" IS NULL`;
      }
      if (deleted.length) {
        result.deleted =
          await tx.$executeRaw`UPDATE "InboxItem" SET "deletedAt" = ${now}, "updatedAt" = now() WHERE id = ANY(${deleted}::uuid[]) AND "deletedAt" IS NULL`;
      }
      await tx.$executeRaw`UPDATE "PostTarget" SET "commentsCheckedAt" = ${now} WHERE id = ANY(${readTargetIds}::uuid[])`;
      if (result.ok)
        await tx.$executeRaw`UPDATE "Connection" SET "commentsCollectedAt" = ${now}, "commentsError" = NULL, "commentsErrorAt" = NULL WHERE id = ${connectionId}::uuid`;
    },
    { timeout: 60_000 },
  );
  if (result.inserted) void kickOutboxDrain();
  return result;
}

/** Rows per INSERT of a collection's new items. */
const INSERT_BATCH = 2_000;

interface NewItem {
  comment: NetworkComment;
  targetId: string;
  postId: string;
  threadExternalId: string;
  postPublishedAt: Date;
}

/**
 * New items of one account in one statement (a second read or an overlapping run skips what
 * exists), with a `comment.received` event for each new comment from someone else: the
 * event's `data` is the catalogue's (events/catalogue.ts), field for field. A comment the
 * account answered in the same read is inserted answered. Returns how many were new.
 */
async function insertItems(
  tx: Tx,
  account: { workspaceId: string; connectionId: string; platform: string; source: string },
  rows: readonly NewItem[],
  answered: ReadonlySet<string>,
  now: Date,
): Promise<number> {
  const col = <T>(pick: (r: NewItem) => T) => rows.map(pick);
  const written = await tx.$queryRaw<{ n: bigint }[]>`
    WITH v AS (
      SELECT * FROM unnest(
        ${col((r) => r.targetId)}::uuid[], ${col((r) => r.postId)}::uuid[], ${col((r) => r.comment.id)}::text[],
        ${col((r) => r.comment.parentId)}::text[], ${col((r) => r.threadExternalId)}::text[], ${col((r) => r.comment.authorId)}::text[],
        ${col((r) => r.comment.authorName)}::text[], ${col((r) => r.comment.authorHandle)}::text[], ${col((r) => r.comment.authorAvatarUrl ?? null)}::text[],
        ${col((r) => r.comment.text)}::text[], ${col((r) => r.comment.permalink)}::text[], ${col((r) => r.comment.createdAt)}::timestamp[],
        ${col((r) => r.comment.editedAt ?? null)}::timestamp[], ${col((r) => r.comment.hidden ?? false)}::bool[], ${col((r) => r.comment.fromAccount)}::bool[],
        ${col((r) => (answered.has(r.comment.id) ? now : null))}::timestamp[], ${col((r) => r.postPublishedAt)}::timestamp[]
      ) AS v("targetId", "postId", "externalId", "parentExternalId", "threadExternalId", "authorExternalId", "authorName", "authorHandle",
             "authorAvatarUrl", text, permalink, "networkCreatedAt", "editedAt", hidden, "fromAccount", "repliedAt", "postPublishedAt")
    ), ins AS (
      INSERT INTO "InboxItem" (id, "workspaceId", "connectionId", "targetId", "postId", platform, kind, "externalId", "parentExternalId",
                               "threadExternalId", "authorExternalId", "authorName", "authorHandle", "authorAvatarUrl", text, permalink,
                               "networkCreatedAt", "editedAt", hidden, "fromAccount", status, "repliedAt", source, "collectedAt", "updatedAt")
      SELECT gen_random_uuid(), ${account.workspaceId}::uuid, ${account.connectionId}::uuid, v."targetId", v."postId", ${account.platform}::text, 'comment',
             v."externalId", v."parentExternalId", v."threadExternalId", v."authorExternalId", v."authorName", v."authorHandle", v."authorAvatarUrl",
             v.text, v.permalink, v."networkCreatedAt", v."editedAt", v.hidden, v."fromAccount",
             -- The account's own comments need no answer.
             CASE WHEN v."fromAccount" THEN 'done' ELSE 'open' END, v."repliedAt", ${account.source}::text, ${now}::timestamp, now()
        FROM v
      ON CONFLICT ("connectionId", kind, "externalId") DO NOTHING
      RETURNING id, "targetId", "externalId", "parentExternalId", "authorName", text, "networkCreatedAt", "fromAccount", "postId"
    ), events AS (
      INSERT INTO "OutboxEvent" (id, "workspaceId", type, data, "requestId")
      SELECT gen_random_uuid(), ${account.workspaceId}::uuid, 'comment.received',
             jsonb_build_object('itemId', ins.id, 'postId', ins."postId", 'connectionId', ${account.connectionId}::uuid, 'platform', ${account.platform}::text,
                                'externalId', ins."externalId", 'parentExternalId', ins."parentExternalId", 'authorName', ins."authorName",
                                'text', ins.text, 'createdAt', ${isoSql('ins."networkCreatedAt"')}, 'postPublishedAt', ${isoSql('v."postPublishedAt"')}),
             ${currentRequestId() ?? null}::text
        FROM ins JOIN v ON v."targetId" = ins."targetId" AND v."externalId" = ins."externalId"
       WHERE NOT ins."fromAccount"
      RETURNING 1
    )
    SELECT count(*) AS n FROM ins`;
  return Number(written[0]?.n ?? 0);
}

/** A timestamp column as the ISO 8601 text JSON carries (what Date#toISOString writes). */
const isoSql = (column: string) => Prisma.raw(`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

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
export async function queueCommentsCheck(workspaceIds: readonly string[], now = new Date()): Promise<{ connections: number; connectionIds: string[] }> {
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
  return { connections: rows.length, connectionIds: rows.map((r) => r.connectionId) };
}
