// Hands committed outbox events to the consumers, each exactly once.
//
// Events are claimed in batches with `FOR UPDATE SKIP LOCKED` inside one transaction, the
// consumers run in that transaction on the whole batch (a few statements per batch, not per
// event), and `dispatchedAt` is set before it commits. When a consumer fails, the batch rolls
// back and its events are handed over again one by one, each behind its own savepoint, so one
// failing event rolls back only its own writes. Concurrent
// drainers therefore never see the same row (the second skips the locked row, and once the
// first commits the row no longer matches `dispatchedAt IS NULL`), and a crash mid-way rolls
// everything back so the event is simply drained again later.
import { db as defaultDb, type Db, type Tx } from '@/server/db/client';
import type { OutboxConsumer, OutboxEventRecord } from './consumers';
import { kickOutboxDrain } from './kick-outbox';
import { log } from '@/server/observability/log';

export interface DrainOutboxOptions {
  db?: Db;
  /** Who receives each event (server/runtime/job-handlers.ts lists them). */
  consumers: readonly OutboxConsumer[];
  /** Bound on events handled by one run, so a job never runs unbounded; the next run continues. */
  maxEvents?: number;
  /** An event that failed this many times is left for inspection (lastError) instead of retried. */
  maxAttempts?: number;
  /** Events claimed and handed over per transaction (each behind its own savepoint). */
  batchSize?: number;
}

export interface DrainOutboxResult {
  dispatched: number;
  failed: number;
}

const DEFAULT_MAX_EVENTS = 500;
const DEFAULT_MAX_ATTEMPTS = 10;
/**
 * Events claimed and handed over per transaction. Consumers cost a fixed number of statements
 * per batch, so a larger batch is cheaper per event; 100 keeps a transaction short (a few ms)
 * and leaves work for a second drainer in a burst.
 */
const DEFAULT_BATCH_SIZE = 100;

type Effect = () => Promise<void> | void;

/**
 * Hands `rows` to every consumer inside `tx`. Together: one call per consumer for the whole
 * batch (a consumer that throws fails the transaction). Isolated: one call per event, each
 * behind its own savepoint, so a failing event rolls back only its own writes and is recorded
 * as failed while the others go through.
 */
async function dispatchBatch(
  tx: Tx,
  rows: OutboxEventRecord[],
  consumers: readonly OutboxConsumer[],
  isolate: boolean,
): Promise<{ dispatched: string[]; failed: string[]; effects: Effect[] }> {
  const effects: Effect[] = [];
  if (rows.length === 0) return { dispatched: [], failed: [], effects };
  if (!isolate) {
    for (const consume of consumers) await consume(rows, { tx, afterCommit: (effect) => void effects.push(effect) });
    return { dispatched: rows.map((r) => r.id), failed: [], effects };
  }
  const dispatched: string[] = [];
  const failed: string[] = [];
  for (const event of rows) {
    const own: Effect[] = [];
    await tx.$executeRawUnsafe('SAVEPOINT outbox_event');
    try {
      for (const consume of consumers) await consume([event], { tx, afterCommit: (effect) => void own.push(effect) });
      await tx.$executeRawUnsafe('RELEASE SAVEPOINT outbox_event');
      dispatched.push(event.id);
      effects.push(...own);
    } catch (error) {
      await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT outbox_event');
      failed.push(event.id);
      await tx.$executeRaw`UPDATE "OutboxEvent" SET "attempts" = "attempts" + 1, "lastError" = ${errorText(error)} WHERE "id" = ${event.id}::uuid`;
    }
  }
  return { dispatched, failed, effects };
}

export async function drainOutbox(options: DrainOutboxOptions): Promise<DrainOutboxResult> {
  const client = options.db ?? defaultDb;
  const consumers = options.consumers;
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  // Events that failed during this run: without this the same failing event (oldest first)
  // would be claimed again at once and block the ones behind it.
  const failedThisRun: string[] = [];
  const result: DrainOutboxResult = { dispatched: 0, failed: 0 };
  // Set after a batch failed as a whole: the same events, handed over one by one next.
  let isolateIds: string[] | undefined;

  while (result.dispatched + result.failed < maxEvents) {
    const limit = Math.min(batchSize, maxEvents - result.dispatched - result.failed);
    const only = isolateIds;
    isolateIds = undefined;
    let claimedIds: string[] = [];
    let isolate = false;
    let batch: { dispatched: string[]; failed: string[]; effects: Effect[] };
    try {
      batch = await client.$transaction(
        async (tx) => {
          const rows = await tx.$queryRaw<OutboxEventRecord[]>`
            SELECT "id", "workspaceId", "type", "data", "createdAt", "attempts", "requestId"
            FROM "OutboxEvent"
            WHERE "dispatchedAt" IS NULL
              AND "attempts" < ${maxAttempts}
              AND NOT ("id" = ANY(${failedThisRun}::uuid[]))
              AND (${only ?? null}::uuid[] IS NULL OR "id" = ANY(${only ?? null}::uuid[]))
            ORDER BY "createdAt", "id"
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED`;
          claimedIds = rows.map((r) => r.id);
          // A single event gains nothing from a batch that could only fail as a whole.
          isolate = only !== undefined || rows.length === 1;
          const outcome = await dispatchBatch(tx, rows, consumers, isolate);
          if (outcome.dispatched.length) {
            await tx.$executeRaw`
              UPDATE "OutboxEvent" SET "dispatchedAt" = now(), "attempts" = "attempts" + 1, "lastError" = NULL
              WHERE "id" = ANY(${outcome.dispatched}::uuid[])`;
          }
          return outcome;
        },
        { timeout: 15_000 },
      );
    } catch (error) {
      // A failure before any row was claimed is the database itself: let the job retry.
      if (claimedIds.length === 0) throw error;
      if (!isolate) {
        // One consumer failed the whole batch: find out which event it was.
        isolateIds = claimedIds;
        continue;
      }
      // The isolated transaction itself failed: nothing of it was written. Count an attempt
      // on each claimed event and leave them for a later drain.
      result.failed += claimedIds.length;
      failedThisRun.push(...claimedIds);
      await client.outboxEvent.updateMany({
        where: { id: { in: claimedIds }, dispatchedAt: null },
        data: { attempts: { increment: 1 }, lastError: errorText(error) },
      });
      continue;
    }
    if (claimedIds.length === 0) {
      if (only) continue; // another drainer took them meanwhile; carry on with the rest
      break;
    }
    result.dispatched += batch.dispatched.length;
    result.failed += batch.failed.length;
    failedThisRun.push(...batch.failed);
    for (const effect of batch.effects) {
      try {
        await effect();
      } catch (error) {
        log.error('outbox', 'after-commit effect failed', error);
      }
    }
  }
  return result;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2_000);
}

/**
 * The drain job: one run of at most DEFAULT_MAX_EVENTS events, and when that run was full,
 * another queued at once. Without it a backlog (10,000 posts published in a minute) would be
 * fanned out one run per cron minute, leaving webhooks minutes behind.
 */
export async function runOutboxDrain(consumers: readonly OutboxConsumer[]): Promise<DrainOutboxResult> {
  const result = await drainOutbox({ consumers: [...consumers] });
  if (result.dispatched + result.failed >= DEFAULT_MAX_EVENTS) await kickOutboxDrain();
  return result;
}
