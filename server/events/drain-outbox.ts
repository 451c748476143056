// Hands committed outbox events to the consumers, each exactly once.
//
// Events are claimed in small batches with `FOR UPDATE SKIP LOCKED` inside one transaction,
// the consumers run in that transaction (each event behind its own savepoint, so one failing
// event rolls back only its own writes), and `dispatchedAt` is set before it commits. Concurrent
// drainers therefore never see the same row (the second skips the locked row, and once the
// first commits the row no longer matches `dispatchedAt IS NULL`), and a crash mid-way rolls
// everything back so the event is simply drained again later.
import { db as defaultDb, type Db } from '@/server/db/client';
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
/** Events claimed per transaction: amortises the transaction over a burst, small enough to share work between drainers. */
const DEFAULT_BATCH_SIZE = 20;

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

  while (result.dispatched + result.failed < maxEvents) {
    const limit = Math.min(batchSize, maxEvents - result.dispatched - result.failed);
    let claimedIds: string[] = [];
    const effects: Array<() => Promise<void> | void> = [];
    let batch: { dispatched: number; failed: string[] };
    try {
      batch = await client.$transaction(
        async (tx) => {
          const rows = await tx.$queryRaw<OutboxEventRecord[]>`
            SELECT "id", "workspaceId", "type", "data", "createdAt", "attempts", "requestId"
            FROM "OutboxEvent"
            WHERE "dispatchedAt" IS NULL
              AND "attempts" < ${maxAttempts}
              AND NOT ("id" = ANY(${failedThisRun}::uuid[]))
            ORDER BY "createdAt", "id"
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED`;
          claimedIds = rows.map((r) => r.id);
          const dispatched: string[] = [];
          const failed: string[] = [];
          for (const event of rows) {
            // Each event behind its own savepoint: a consumer that fails rolls back its own
            // writes only, and the event stays undispatched for a later drain.
            const own: Array<() => Promise<void> | void> = [];
            await tx.$executeRawUnsafe('SAVEPOINT outbox_event');
            try {
              for (const consume of consumers) {
                await consume(event, { tx, afterCommit: (effect) => void own.push(effect) });
              }
              await tx.$executeRawUnsafe('RELEASE SAVEPOINT outbox_event');
              dispatched.push(event.id);
              effects.push(...own);
            } catch (error) {
              await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT outbox_event');
              failed.push(event.id);
              await tx.$executeRaw`UPDATE "OutboxEvent" SET "attempts" = "attempts" + 1, "lastError" = ${errorText(error)} WHERE "id" = ${event.id}::uuid`;
            }
          }
          if (dispatched.length) {
            await tx.$executeRaw`
              UPDATE "OutboxEvent" SET "dispatchedAt" = now(), "attempts" = "attempts" + 1, "lastError" = NULL
              WHERE "id" = ANY(${dispatched}::uuid[])`;
          }
          return { dispatched: dispatched.length, failed };
        },
        { timeout: 15_000 },
      );
    } catch (error) {
      // A failure before any row was claimed is the database itself: let the job retry.
      if (claimedIds.length === 0) throw error;
      // The batch's transaction itself failed: nothing of it was written. Count an attempt on
      // each claimed event and leave them for a later drain.
      result.failed += claimedIds.length;
      failedThisRun.push(...claimedIds);
      await client.outboxEvent.updateMany({
        where: { id: { in: claimedIds }, dispatchedAt: null },
        data: { attempts: { increment: 1 }, lastError: errorText(error) },
      });
      continue;
    }
    if (claimedIds.length === 0) break;
    result.dispatched += batch.dispatched;
    result.failed += batch.failed.length;
    failedThisRun.push(...batch.failed);
    for (const effect of effects) {
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
