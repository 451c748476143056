// Storing direct messages and reviews, read (collect-conversations.ts) or pushed by the network
// (server/network-webhooks): one function for both, so an item that arrives twice — pushed and
// polled in either order, or redelivered by a network retrying — is one row. Each write is one
// statement per kind (the insert, its events and the answered marks together), so a crash
// leaves either the whole batch or nothing, and the network's retry writes it then.
//
// Keys: (connectionId, kind, externalId) is unique. A message's externalId is its network id; a
// review's is the review's id; the account's answer to a review is a `review` row of its own,
// `fromAccount`, keyed by the answer's id (Google's answers have none: `{review}/reply`).
import { Prisma } from '@/server/generated/prisma/client';
import type { Tx } from '@/server/db/client';
import { currentRequestId } from '@/server/observability/log';
import { storableStrings } from '@/server/shared/schemas';
import type { NetworkMessage, NetworkReview } from '@/server/platforms/conversations';

export interface StoreAccount {
  workspaceId: string;
  connectionId: string;
  platform: string;
  /** What the items were read from: the network's API, `sandbox`, or `<network>-webhook`. */
  source: string;
}

type Db = Pick<Tx, '$queryRaw' | '$executeRaw'>;

/** One of each network id (a delivery may carry an item twice; one statement may not write a row twice). */
const uniqueById = <T extends { id: string }>(items: readonly T[]): T[] => [...new Map(items.map((i) => [i.id, i])).values()];

/** A timestamp column as the ISO 8601 text JSON carries (what Date#toISOString writes). */
const isoSql = (column: string) => Prisma.raw(`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * Message `a` is newer than message `b` in their conversation (two table aliases): by the
 * network's time, then its id. The one order of the write path and the heal alike: networks that
 * date a message to the second (Telegram, Bluesky) give two quick messages one time. Spelled out
 * rather than as the row comparison `(t, id) > (t, id)`: its `t >=` half is a range on the index
 * (connectionId, threadExternalId, networkCreatedAt); the row comparison is not, and measured
 * slower in the webhook bench and the heal (docs/performance.md).
 */
const newer = (a: string, b: string) =>
  Prisma.raw(
    `(${a}."networkCreatedAt" >= ${b}."networkCreatedAt" AND (${a}."networkCreatedAt" > ${b}."networkCreatedAt" OR ${a}."externalId" > ${b}."externalId"))`,
  );

/**
 * Stores messages of one account: new ones inserted with a `message.received` event each (from
 * someone else), a known one left as it is except a placeholder name (a webhook names the
 * sender by id) replaced by the real one; a reply from Herald still sending that the network
 * reports back first is adopted, not doubled. The account's own messages mark the earlier
 * messages of their conversation answered (time to first reply). Returns how many were new.
 */
export async function storeMessages(db: Db, account: StoreAccount, read: readonly NetworkMessage[], now: Date): Promise<number> {
  if (!read.length) return 0;
  const messages = read.map(storableStrings);
  // Herald's own reply, reported back (a Meta echo, a read) before its send recorded the id.
  const own = messages.filter((m) => m.fromAccount);
  const adopted = new Set<string>();
  for (const m of own) {
    const rows = await db.$queryRaw<{ id: string }[]>`
      UPDATE "InboxItem" SET "externalId" = ${m.id}, "replyState" = 'sent', "collectedAt" = ${now}, "updatedAt" = now()
       WHERE id = (SELECT id FROM "InboxItem" WHERE "connectionId" = ${account.connectionId}::uuid AND kind = 'message' AND "externalId" IS NULL
                      AND "replyState" = 'sending' AND "threadExternalId" = ${m.conversationId} AND text = ${m.text}
                    ORDER BY "createdAt" LIMIT 1)
         AND NOT EXISTS (SELECT 1 FROM "InboxItem" WHERE "connectionId" = ${account.connectionId}::uuid AND kind = 'message' AND "externalId" = ${m.id})
      RETURNING id`;
    if (rows.length) adopted.add(m.id);
  }
  const writes = uniqueById(messages)
    .filter((m) => !adopted.has(m.id))
    .map((message) => ({ account, message }));
  const written = writes.length
    ? await db.$queryRaw<{ n: bigint }[]>`WITH ${messageWrites(writes, now)} SELECT count(*) FILTER (WHERE fresh) AS n FROM ins`
    : [{ n: 0n }];
  if (own.length) await markAnswered(db, account.connectionId, 'message', own, now);
  return Number(written[0]?.n ?? 0);
}

/** One message to write and the account it belongs to; `group` names the caller's batch it came in (a webhook delivery). */
export interface MessageWrite {
  account: StoreAccount;
  message: NetworkMessage;
  group?: number;
}

/**
 * storeMessages' insert as the CTEs of one statement — `v` (a row per message, with its
 * account's columns and its `grp`), `ins` (each row written, `fresh` when new) and `events` —
 * without the word WITH, so a caller can add its own writes to the same statement (the
 * webhook's delivery records, server/network-webhooks): one round trip, atomic by itself. Each
 * row carries its own account, so one statement can store the messages of several accounts.
 * Messages of the account's own need storeMessages' other statements (the adoption of Herald's
 * reply, the answered marks). `when`, a boolean SQL expression over `v`, gates every write.
 * The caller gives each (account, message id) once: one statement may not write a row twice.
 */
export function messageWrites(writes: readonly MessageWrite[], now: Date, when: Prisma.Sql = Prisma.sql`true`): Prisma.Sql {
  const col = <T>(pick: (w: MessageWrite) => T) => writes.map(pick);
  const messages = writes.map((w) => storableStrings(w.message));
  const msg = <T>(pick: (m: NetworkMessage) => T) => messages.map(pick);
  return Prisma.sql`v AS (
      SELECT * FROM unnest(
        ${col((w) => w.account.workspaceId)}::uuid[], ${col((w) => w.account.connectionId)}::uuid[], ${col((w) => w.account.platform)}::text[],
        ${col((w) => w.account.source)}::text[], ${col((w) => w.group ?? 0)}::int[],
        ${msg((m) => m.id)}::text[], ${msg((m) => m.conversationId)}::text[], ${msg((m) => m.authorId)}::text[], ${msg((m) => m.authorName)}::text[],
        ${msg((m) => m.authorHandle)}::text[], ${msg((m) => m.authorAvatarUrl ?? null)}::text[], ${msg((m) => m.text)}::text[],
        ${msg((m) => m.attachmentUrl ?? null)}::text[], ${msg((m) => m.createdAt)}::timestamp[], ${msg((m) => m.fromAccount)}::bool[]
      ) AS v("workspaceId", "connectionId", platform, source, grp, "externalId", "threadExternalId", "authorExternalId", "authorName",
             "authorHandle", "authorAvatarUrl", text, "attachmentUrl", "networkCreatedAt", "fromAccount")
       WHERE ${when}
    ), ins AS (
      INSERT INTO "InboxItem" (id, "workspaceId", "connectionId", platform, kind, "externalId", "threadExternalId", "authorExternalId",
                               "authorName", "authorHandle", "authorAvatarUrl", text, "attachmentUrl", "networkCreatedAt", "fromAccount",
                               status, "newestInConversation", source, "collectedAt", "updatedAt")
      SELECT gen_random_uuid(), v."workspaceId", v."connectionId", v.platform, 'message', v."externalId",
             v."threadExternalId", v."authorExternalId", v."authorName", v."authorHandle", v."authorAvatarUrl", v.text, v."attachmentUrl",
             v."networkCreatedAt", v."fromAccount", CASE WHEN v."fromAccount" THEN 'done' ELSE 'open' END,
             -- The inbox lists a conversation once, by the newest message the person wrote: stored,
             -- or in this batch (one arriving late, older than one stored, is not the newest).
             v."fromAccount" OR NOT (
               EXISTS (SELECT 1 FROM "InboxItem" o WHERE o."connectionId" = v."connectionId" AND o.kind = 'message' AND NOT o."fromAccount"
                          AND o."threadExternalId" = v."threadExternalId" AND ${newer('o', 'v')})
               OR EXISTS (SELECT 1 FROM v w WHERE NOT w."fromAccount" AND w."connectionId" = v."connectionId" AND w."threadExternalId" = v."threadExternalId"
                          AND ${newer('w', 'v')})),
             v.source, ${now}::timestamp, now()
        FROM v
      ON CONFLICT ("connectionId", kind, "externalId") DO UPDATE
         SET "authorName" = EXCLUDED."authorName", "authorHandle" = COALESCE(EXCLUDED."authorHandle", "InboxItem"."authorHandle"),
             "authorAvatarUrl" = COALESCE(EXCLUDED."authorAvatarUrl", "InboxItem"."authorAvatarUrl"), "updatedAt" = now()
       -- Only a placeholder name (the sender's id, from a webhook) is replaced; anything else stays as first written.
       WHERE "InboxItem"."authorName" = "InboxItem"."authorExternalId" AND EXCLUDED."authorName" <> EXCLUDED."authorExternalId"
      RETURNING id, "workspaceId", "connectionId", platform, "externalId", "threadExternalId", "authorName", text, "networkCreatedAt",
                "fromAccount", (xmax = 0) AS fresh
    ), events AS (
      INSERT INTO "OutboxEvent" (id, "workspaceId", type, data, "requestId")
      SELECT gen_random_uuid(), ins."workspaceId", 'message.received',
             jsonb_build_object('itemId', ins.id, 'connectionId', ins."connectionId", 'platform', ins.platform,
                                'conversationId', ins."threadExternalId", 'externalId', ins."externalId", 'authorName', ins."authorName",
                                'text', ins.text, 'createdAt', ${isoSql('ins."networkCreatedAt"')}),
             ${currentRequestId() ?? null}::text
        FROM ins WHERE ins.fresh AND NOT ins."fromAccount"
      RETURNING 1
    ), older AS (
      -- The conversation's earlier messages from the person stop being its newest: older than
      -- the batch's newest of that conversation (one sort of the batch, not a scan per row).
      UPDATE "InboxItem" o SET "newestInConversation" = false, "updatedAt" = now()
        FROM (SELECT DISTINCT ON ("connectionId", "threadExternalId") "connectionId", "threadExternalId", "networkCreatedAt", "externalId"
                FROM v WHERE NOT v."fromAccount" ORDER BY "connectionId", "threadExternalId", "networkCreatedAt" DESC, "externalId" DESC) n
       WHERE o."connectionId" = n."connectionId" AND o.kind = 'message' AND NOT o."fromAccount"
         AND o."threadExternalId" = n."threadExternalId" AND o."newestInConversation" AND ${newer('n', 'o')}
      RETURNING 1
    )`;
}

/** How far back (by the network's time) healConversationsListedTwice looks, each sweep. */
export const HEAL_WINDOW_MINUTES = 60;

/**
 * A conversation marked newest twice made single again (inbox.sweep, every five minutes): two
 * statements storing messages of one conversation at the same moment do not see each other's
 * rows, so each marks its own the newest. Herald's webhook receiver keeps one account's
 * deliveries out of two statements at once within a process (store-usual-deliveries.ts); with
 * several processes, or a push meeting a read, it can still happen, for messages just sent.
 * Looks at the last HEAL_WINDOW_MINUTES of each workspace (its index on networkCreatedAt).
 */
export async function healConversationsListedTwice(db: Db, now = new Date()): Promise<number> {
  return db.$executeRaw`
    UPDATE "InboxItem" o SET "newestInConversation" = false, "updatedAt" = now()
      FROM "Workspace" w
     WHERE o."workspaceId" = w.id AND o."networkCreatedAt" > ${new Date(now.getTime() - HEAL_WINDOW_MINUTES * 60_000)}
       AND o.kind = 'message' AND NOT o."fromAccount" AND o."newestInConversation"
       AND EXISTS (SELECT 1 FROM "InboxItem" n WHERE n."connectionId" = o."connectionId" AND n.kind = 'message' AND NOT n."fromAccount"
                      AND n."threadExternalId" = o."threadExternalId" AND ${newer('n', 'o')})`;
}

/**
 * Messages of someone else answered by the account's later message in the same conversation:
 * their first reply time is the answer's (a reply from Herald records its own when sent).
 */
async function markAnswered(db: Db, connectionId: string, kind: 'message', own: readonly NetworkMessage[], now: Date): Promise<void> {
  const conversations = own.map((m) => m.conversationId);
  const at = own.map((m) => (m.createdAt.getTime() > now.getTime() ? now : m.createdAt));
  await db.$executeRaw`
    UPDATE "InboxItem" i SET "repliedAt" = a.at, "updatedAt" = now()
      FROM (SELECT c, min(at) AS at FROM unnest(${conversations}::text[], ${at}::timestamp[]) AS u(c, at) GROUP BY c) a
     WHERE i."connectionId" = ${connectionId}::uuid AND i.kind = ${kind} AND i."threadExternalId" = a.c
       AND NOT i."fromAccount" AND i."repliedAt" IS NULL AND i."networkCreatedAt" <= a.at`;
}

/**
 * Stores reviews of one account: a new review inserted with a `review.received` event; one the
 * reviewer changed updated in place (text, stars, `editedAt`); the account's answer (written on
 * the network or from Herald) kept as the review's reply row, its text followed, and the
 * review marked answered. `complete`: the read listed every review, so one missing from it was
 * deleted on the network, and a review listed without an answer Herald holds had it taken down
 * (a push carries one review and says nothing of its answer: never complete). Returns how many
 * reviews were new. Text the database cannot hold is made storable first (toStorableText), as
 * for messages.
 */
export async function storeReviews(
  db: Db,
  account: StoreAccount,
  reviews: readonly NetworkReview[],
  now: Date,
  { complete }: { complete: boolean },
): Promise<number> {
  let fresh = 0;
  reviews = uniqueById(reviews).map(storableStrings);
  if (reviews.length) {
    const col = <T>(pick: (r: NetworkReview) => T) => reviews.map(pick);
    const written = await db.$queryRaw<{ n: bigint }[]>`
      WITH v AS (
        SELECT * FROM unnest(
          ${col((r) => r.id)}::text[], ${col((r) => r.authorName)}::text[], ${col((r) => r.authorAvatarUrl ?? null)}::text[],
          ${col((r) => r.rating)}::int[], ${col((r) => r.recommends)}::bool[], ${col((r) => r.text)}::text[], ${col((r) => r.createdAt)}::timestamp[],
          ${col((r) => r.updatedAt ?? null)}::timestamp[], ${col((r) => r.permalink)}::text[], ${col((r) => r.reply?.updatedAt ?? null)}::timestamp[]
        ) AS v("externalId", "authorName", "authorAvatarUrl", rating, recommends, text, "networkCreatedAt", "changedAt", permalink, "answeredAt")
      ), ins AS (
        INSERT INTO "InboxItem" (id, "workspaceId", "connectionId", platform, kind, "externalId", "threadExternalId", "authorName",
                                 "authorAvatarUrl", rating, recommends, text, permalink, "networkCreatedAt", "repliedAt", "fromAccount",
                                 status, source, "collectedAt", "updatedAt")
        SELECT gen_random_uuid(), ${account.workspaceId}::uuid, ${account.connectionId}::uuid, ${account.platform}::text, 'review', v."externalId",
               v."externalId", v."authorName", v."authorAvatarUrl", v.rating, v.recommends, v.text, v.permalink, v."networkCreatedAt",
               v."answeredAt", false, 'open', ${account.source}::text, ${now}::timestamp, now()
          FROM v
        ON CONFLICT ("connectionId", kind, "externalId") DO UPDATE
           SET text = EXCLUDED.text, rating = EXCLUDED.rating, recommends = EXCLUDED.recommends,
               "editedAt" = CASE WHEN "InboxItem".text <> EXCLUDED.text OR "InboxItem".rating IS DISTINCT FROM EXCLUDED.rating
                                 THEN ${now}::timestamp ELSE "InboxItem"."editedAt" END,
               "repliedAt" = COALESCE("InboxItem"."repliedAt", EXCLUDED."repliedAt"), "deletedAt" = NULL,
               "collectedAt" = ${now}::timestamp, "updatedAt" = now()
         -- A review read again unchanged writes nothing.
         WHERE "InboxItem".text <> EXCLUDED.text OR "InboxItem".rating IS DISTINCT FROM EXCLUDED.rating
            OR "InboxItem".recommends IS DISTINCT FROM EXCLUDED.recommends OR "InboxItem"."deletedAt" IS NOT NULL
            OR ("InboxItem"."repliedAt" IS NULL AND EXCLUDED."repliedAt" IS NOT NULL)
        RETURNING id, "externalId", "authorName", text, rating, recommends, "networkCreatedAt", (xmax = 0) AS fresh
      ), events AS (
        INSERT INTO "OutboxEvent" (id, "workspaceId", type, data, "requestId")
        SELECT gen_random_uuid(), ${account.workspaceId}::uuid, 'review.received',
               jsonb_build_object('itemId', ins.id, 'connectionId', ${account.connectionId}::uuid, 'platform', ${account.platform}::text,
                                  'externalId', ins."externalId", 'authorName', ins."authorName", 'rating', ins.rating,
                                  'recommends', ins.recommends, 'text', ins.text, 'createdAt', ${isoSql('ins."networkCreatedAt"')}),
               ${currentRequestId() ?? null}::text
          FROM ins WHERE ins.fresh
        RETURNING 1
      )
      SELECT count(*) FILTER (WHERE fresh) AS n FROM ins`;
    fresh = Number(written[0]?.n ?? 0);
    await storeReviewReplies(db, account, reviews, now, complete);
  }
  if (complete) {
    await db.$executeRaw`
      UPDATE "InboxItem" SET "deletedAt" = ${now}, "updatedAt" = now()
       WHERE "connectionId" = ${account.connectionId}::uuid AND kind = 'review' AND NOT "fromAccount" AND "deletedAt" IS NULL
         AND "externalId" IS NOT NULL AND NOT ("externalId" = ANY(${reviews.map((r) => r.id)}::text[]))`;
  }
  return fresh;
}

/** The account's answers as the network has them: inserted, their text followed, gone ones marked deleted. */
async function storeReviewReplies(db: Db, account: StoreAccount, reviews: readonly NetworkReview[], now: Date, read: boolean): Promise<void> {
  const answered = reviews.filter((r) => r.reply);
  if (answered.length) {
    await db.$executeRaw`
      WITH v AS (
        SELECT * FROM unnest(${answered.map((r) => r.reply!.id)}::text[], ${answered.map((r) => r.id)}::text[],
                             ${answered.map((r) => r.reply!.text)}::text[], ${answered.map((r) => r.reply!.updatedAt)}::timestamp[])
          AS v("externalId", "reviewId", text, at)
      )
      INSERT INTO "InboxItem" (id, "workspaceId", "connectionId", platform, kind, "externalId", "parentExternalId", "threadExternalId",
                               "inReplyToId", "authorExternalId", "authorName", "authorHandle", text, "networkCreatedAt", "fromAccount", status,
                               "seenAt", source, "collectedAt", "updatedAt")
      SELECT gen_random_uuid(), ${account.workspaceId}::uuid, ${account.connectionId}::uuid, ${account.platform}::text, 'review', v."externalId",
             v."reviewId", v."reviewId", r.id, c."externalId", COALESCE(NULLIF(c."displayName", ''), c."accountName"), c."accountName", v.text, v.at,
             true, 'done', ${now}::timestamp, ${account.source}::text, ${now}::timestamp, now()
        FROM v
        JOIN "Connection" c ON c.id = ${account.connectionId}::uuid
        LEFT JOIN "InboxItem" r ON r."connectionId" = c.id AND r.kind = 'review' AND r."externalId" = v."reviewId" AND NOT r."fromAccount"
      ON CONFLICT ("connectionId", kind, "externalId") DO UPDATE
         SET text = EXCLUDED.text, "editedAt" = ${now}::timestamp, "deletedAt" = NULL, "updatedAt" = now()
       WHERE "InboxItem".text <> EXCLUDED.text OR "InboxItem"."deletedAt" IS NOT NULL`;
  }
  // A review read without an answer whose answer Herald holds: taken down on the network. (A
  // push says nothing of the answer: Meta's ratings webhook carries the review alone.)
  const unanswered = reviews.filter((r) => !r.reply).map((r) => r.id);
  if (read && unanswered.length) {
    await db.$executeRaw`
      UPDATE "InboxItem" SET "deletedAt" = ${now}, "updatedAt" = now()
       WHERE "connectionId" = ${account.connectionId}::uuid AND kind = 'review' AND "fromAccount" AND "deletedAt" IS NULL
         AND "externalId" IS NOT NULL AND "parentExternalId" = ANY(${unanswered}::text[])`;
  }
}
