// The usual webhook delivery — messages from people to one account, what Meta sends for nearly
// every delivery — stored without a transaction around it: one statement commits whole or not at
// all, and its caller answers the network only after it returns, so nothing is acknowledged
// before its commit.
//
// Deliveries are written together (group commit, server/shared/coalesce.ts): the first goes at
// once; those arriving while IN_FLIGHT statements run go together in the next statement. At a
// quiet moment a delivery waits for nothing; under load one statement (and one round trip, one
// outbox kick) carries many, which is what lets two cores take a thousand one-message
// deliveries a second (docs/performance.md, "Webhook ingestion"). In that statement each
// delivery keeps its own checks and its own outcome: its digest (stored before: written
// nothing, answered `duplicate`), its account still live with that id and the only live one
// with it (otherwise written nothing, and the caller takes the path that stores for every
// workspace), its record with its own count. If a statement fails, its deliveries are stored
// one by one, so a delivery the database refuses fails alone.
//
// One account's deliveries are never in two statements running at once (they share the next
// one instead): two statements in flight do not see each other's rows, so two messages of one
// conversation written side by side would both be marked its newest, and the inbox would list
// the conversation twice. That holds within this process; docs/inbox.md says what heals it
// across several.
import { getPool } from '@/server/db/client';
import { kickOutboxDrain } from '@/server/events/kick-outbox';
import { messageWrites, type MessageWrite, type StoreAccount } from '@/server/inbox/store-conversations';
import type { PushedItems } from '@/server/platforms/conversations';
import { coalesce } from '@/server/shared/coalesce';
import { Prisma } from '@/server/generated/prisma/client';

/** A live account, as the webhook's lookup finds it. */
export interface WebhookAccount {
  id: string;
  workspaceId: string;
  platform: string;
  externalId: string;
}

export interface UsualDelivery {
  network: string;
  digest: string;
  pushed: PushedItems;
  account: WebhookAccount;
  receivedAt: Date;
}

export interface StoredDelivery {
  items: number;
  duplicate: boolean;
}

/** Statements writing usual deliveries at once; the others queue for the next (pool: DATABASE_POOL_SIZE). */
const IN_FLIGHT = 2;
/** The most deliveries one statement carries. */
const MAX_BATCH = 200;

/**
 * The usual delivery: messages from people (not the account's own: those take storeMessages'
 * other statements) to one account id, nothing else. Null for any other.
 */
export function usualDelivery(items: readonly PushedItems[]): PushedItems | null {
  const [pushed] = items;
  if (items.length !== 1 || !pushed || pushed.reviews.length || pushed.readReviews || !pushed.messages.length) return null;
  return pushed.messages.some((m) => m.fromAccount) ? null : pushed;
}

/**
 * An account's pushReceivedAt is moved on at most once a minute: the reads only ask whether a
 * push came in the last hours (collect-conversations.ts), and every delivery for a busy Page
 * writing its Connection row would queue them all on that row's lock until each commits.
 */
export const pushReceivedSql = (ids: Prisma.Sql, now: Date) => Prisma.sql`
  UPDATE "Connection" SET "pushReceivedAt" = ${now}::timestamp
   WHERE id IN (${ids}) AND ("pushReceivedAt" IS NULL OR "pushReceivedAt" < ${new Date(now.getTime() - 60_000)}::timestamp)`;

const storeAccount = (d: UsualDelivery): StoreAccount => ({
  workspaceId: d.account.workspaceId,
  connectionId: d.account.id,
  platform: d.account.platform,
  source: `${d.network}-webhook`,
});

/** One delivery's messages, each id once (a delivery may carry one twice). */
const writesOf = (d: UsualDelivery, group: number): MessageWrite[] => {
  const account = storeAccount(d);
  return [...new Map(d.pushed.messages.map((message) => [message.id, { account, message, group }])).values()];
};

/**
 * Whether `d` may share a statement with `batch`: not the same delivery twice (its record could
 * not tell which copy was the first), and no message of an account twice (one statement may not
 * write a row twice). Such a delivery waits for the next statement.
 */
function fits(batch: readonly UsualDelivery[], d: UsualDelivery): boolean {
  const ids = new Set(d.pushed.messages.map((m) => m.id));
  return batch.every(
    (o) => !(o.network === d.network && o.digest === d.digest) && (o.account.id !== d.account.id || !o.pushed.messages.some((m) => ids.has(m.id))),
  );
}

/**
 * A Date, or an array's Dates, as UTC ISO 8601 for the driver (it would send local time), as
 * server/db/sql.ts does; a `timestamp` column keeps the UTC wall time.
 */
const driverParam = (v: unknown) =>
  v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.map((x: unknown) => (x instanceof Date ? x.toISOString() : x)) : v;

/**
 * Usual deliveries as one statement: per delivery (`dl`, `g`) whether it is new and its account
 * live and alone with its id; the messages of those that are (messageWrites: the SQL the reads
 * run, with their events and the conversations' newest marks); each one's record with how many
 * of its messages were new; the accounts' pushReceivedAt. Sent on the driver as a prepared
 * statement, its text the same whatever the batch (the values are arrays): each connection
 * parses and plans it once (planning it each time was a third of the database's time per
 * delivery). Rows go in a fixed order (accounts, then ids; deliveries by digest), so two
 * statements holding copies of the same deliveries wait on each other in one order, not in a
 * cycle. Two copies of a delivery in flight at once both pass the digest check; the one whose
 * record then conflicts has written nothing either (its items met the other's rows).
 */
async function storeTogether(batch: readonly UsualDelivery[]): Promise<Array<StoredDelivery | null>> {
  const order = batch.map((d, k) => ({ d, k })).sort((a, b) => (a.d.digest < b.d.digest ? -1 : a.d.digest > b.d.digest ? 1 : 0));
  const writes = order
    .flatMap(({ d, k }) => writesOf(d, k))
    .sort((a, b) => a.account.connectionId.localeCompare(b.account.connectionId) || (a.message.id < b.message.id ? -1 : a.message.id > b.message.id ? 1 : 0));
  const now = new Date(Math.max(...batch.map((d) => d.receivedAt.getTime())));
  const dl = <T>(pick: (d: UsualDelivery) => T) => order.map(({ d }) => pick(d));
  const query = Prisma.sql`
    WITH dl AS (
      SELECT * FROM unnest(${order.map(({ k }) => k)}::int[], ${dl((d) => d.network)}::text[], ${dl((d) => d.digest)}::text[],
                           ${dl((d) => d.receivedAt)}::timestamp[], ${dl((d) => d.account.id)}::uuid[], ${dl((d) => d.account.platform)}::text[],
                           ${dl((d) => d.pushed.accountId)}::text[], ${dl((d) => d.pushed.platforms.join(','))}::text[])
        AS dl(k, network, digest, "receivedAt", "connectionId", platform, "externalId", platforms)
    ), g AS (
      SELECT dl.k,
             NOT EXISTS (SELECT 1 FROM "NetworkWebhookDelivery" r WHERE r.network = dl.network AND r.digest = dl.digest) AS fresh,
             EXISTS (SELECT 1 FROM "Connection" c WHERE c.id = dl."connectionId" AND c."externalId" = dl."externalId" AND c.platform = dl.platform
                        AND c.status = 'active' AND c.provider <> 'sandbox')
             AND NOT EXISTS (SELECT 1 FROM "Connection" c WHERE c."externalId" = dl."externalId" AND c.platform = ANY(string_to_array(dl.platforms, ','))
                        AND c.id <> dl."connectionId" AND c.status = 'active' AND c.provider <> 'sandbox') AS live
        FROM dl
    ), ok AS (
      SELECT k FROM g WHERE fresh AND live
    ), ${messageWrites(writes, now, Prisma.sql`v.grp IN (SELECT k FROM ok)`)}, counted AS (
      SELECT v.grp AS k, count(*)::int AS n
        FROM ins JOIN v ON v."connectionId" = ins."connectionId" AND v."externalId" = ins."externalId"
       WHERE ins.fresh GROUP BY v.grp
    ), d AS (
      INSERT INTO "NetworkWebhookDelivery" (id, network, outcome, digest, "receivedAt", items)
      SELECT gen_random_uuid(), dl.network, 'accepted', dl.digest, dl."receivedAt", COALESCE(counted.n, 0)
        FROM dl JOIN ok USING (k) LEFT JOIN counted USING (k)
       ORDER BY dl.digest
      ON CONFLICT (network, digest) DO NOTHING RETURNING network, digest
    ), touched AS (
      ${pushReceivedSql(Prisma.sql`SELECT dl."connectionId" FROM dl JOIN ok USING (k)`, now)}
    )
    SELECT dl.k, g.live, g.fresh, EXISTS (SELECT 1 FROM d WHERE d.network = dl.network AND d.digest = dl.digest) AS recorded,
           COALESCE(counted.n, 0) AS n
      FROM dl JOIN g USING (k) LEFT JOIN counted USING (k)`;
  const { rows } = await getPool().query<{ k: number; live: boolean; fresh: boolean; recorded: boolean; n: number }>({
    name: 'network-webhook-usual-deliveries',
    text: query.text,
    values: query.values.map(driverParam),
  });
  const results: Array<StoredDelivery | null> = batch.map(() => null);
  for (const row of rows) {
    if (!row.live) continue;
    results[row.k] = !row.fresh || !row.recorded ? { items: 0, duplicate: true } : { items: row.n, duplicate: false };
  }
  if (results.some((r) => r?.items)) void kickOutboxDrain();
  return results;
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/** A statement's deliveries, or, when it fails, each alone: one the database refuses fails by itself. */
async function storeBatch(batch: readonly UsualDelivery[]): Promise<Array<StoredDelivery | null | Error>> {
  try {
    return await storeTogether(batch);
  } catch (error) {
    if (batch.length === 1) return [asError(error)];
    const results: Array<StoredDelivery | null | Error> = [];
    for (const d of batch) results.push(await storeTogether([d]).then(([r]) => r ?? null, asError));
    return results;
  }
}

const queued = coalesce(storeBatch, { inFlight: IN_FLIGHT, maxBatch: MAX_BATCH, fits, exclusive: (d) => d.account.id });

/**
 * Stores a usual delivery for the account it was found to be, in the next statement: its
 * outcome once that statement has committed, or null when the account is no longer live with
 * that id or no longer the only live one (nothing was written).
 */
export async function storeUsualDelivery(delivery: UsualDelivery): Promise<StoredDelivery | null> {
  const result = await queued(delivery);
  if (result instanceof Error) throw result;
  return result;
}
