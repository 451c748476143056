// Hands committed outbox events to the consumers, each exactly once.
//
// Each event is claimed with `FOR UPDATE SKIP LOCKED` inside its own transaction, the
// consumers run in that transaction, and `dispatchedAt` is set before it commits. Concurrent
// drainers therefore never see the same row (the second skips the locked row, and once the
// first commits the row no longer matches `dispatchedAt IS NULL`), and a crash mid-way rolls
// everything back so the event is simply drained again later.
import { db as defaultDb, type Db } from '@/server/db/client';
import type { OutboxConsumer, OutboxEventRecord } from './consumers';

export interface DrainOutboxOptions {
  db?: Db;
  /** Who receives each event (server/runtime/job-handlers.ts lists them). */
  consumers: readonly OutboxConsumer[];
  /** Bound on events handled by one run, so a job never runs unbounded; the next run continues. */
  maxEvents?: number;
  /** An event that failed this many times is left for inspection (lastError) instead of retried. */
  maxAttempts?: number;
}

export interface DrainOutboxResult {
  dispatched: number;
  failed: number;
}

const DEFAULT_MAX_EVENTS = 500;
const DEFAULT_MAX_ATTEMPTS = 10;

export async function drainOutbox(options: DrainOutboxOptions): Promise<DrainOutboxResult> {
  const client = options.db ?? defaultDb;
  const consumers = options.consumers;
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  // Events that failed during this run: without this the same failing event (oldest first)
  // would be claimed again at once and block the ones behind it.
  const failedThisRun: string[] = [];
  const result: DrainOutboxResult = { dispatched: 0, failed: 0 };

  while (result.dispatched + result.failed < maxEvents) {
    let claimedId: string | undefined;
    const effects: Array<() => Promise<void> | void> = [];
    try {
      const claimed = await client.$transaction(
        async (tx) => {
          const rows = await tx.$queryRaw<OutboxEventRecord[]>`
            SELECT "id", "workspaceId", "type", "data", "createdAt", "attempts"
            FROM "OutboxEvent"
            WHERE "dispatchedAt" IS NULL
              AND "attempts" < ${maxAttempts}
              AND NOT ("id" = ANY(${failedThisRun}::uuid[]))
            ORDER BY "createdAt", "id"
            LIMIT 1
            FOR UPDATE SKIP LOCKED`;
          const event = rows[0];
          if (!event) return undefined;
          claimedId = event.id;
          for (const consume of consumers) {
            await consume(event, { tx, afterCommit: (effect) => void effects.push(effect) });
          }
          await tx.outboxEvent.update({
            where: { id: event.id },
            data: { dispatchedAt: new Date(), attempts: { increment: 1 }, lastError: null },
          });
          return event;
        },
        { timeout: 15_000 },
      );
      if (!claimed) break;
      result.dispatched += 1;
    } catch (error) {
      // A failure before any row was claimed is the database itself: let the job retry.
      if (!claimedId) throw error;
      result.failed += 1;
      failedThisRun.push(claimedId);
      await client.outboxEvent.updateMany({
        where: { id: claimedId, dispatchedAt: null },
        data: { attempts: { increment: 1 }, lastError: errorText(error) },
      });
      continue;
    }
    for (const effect of effects) {
      try {
        await effect();
      } catch (error) {
        console.error('[outbox] after-commit effect failed', error);
      }
    }
  }
  return result;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2_000);
}
