// What receives drained outbox events. The consumers themselves (the webhook fan-out) are
// listed in the composition root, server/runtime/job-handlers.ts, which hands them to the
// drain: the outbox never imports the domains that consume it.
import type { Tx } from '@/server/db/client';

export interface OutboxEventRecord {
  id: string;
  workspaceId: string;
  type: string;
  data: unknown;
  createdAt: Date;
  /** Earlier failed attempts at dispatching this event. */
  attempts: number;
  /** The request that caused it (X-Request-Id), when one did. */
  requestId: string | null;
}

export interface OutboxConsumerContext {
  /**
   * The transaction that marks the event dispatched: write here (e.g. delivery rows) and the
   * writes commit together with `dispatchedAt`, or roll back together on failure.
   */
  tx: Tx;
  /** Side effects outside the database (enqueueing jobs, HTTP) run only after the commit. */
  afterCommit(effect: () => Promise<void> | void): void;
}

/**
 * Receives a batch of events, oldest first, and handles them with a fixed number of statements
 * for the whole batch (one read of the endpoints for all events, one insert of all deliveries):
 * the drain's cost must not grow by a round trip per event, or a burst of events outruns it.
 * Throwing rolls the batch back; the drain then hands each of its events over alone, so only
 * the event that fails stays undispatched (attempts + 1, lastError set) for a later drain.
 */
export type OutboxConsumer = (events: readonly OutboxEventRecord[], ctx: OutboxConsumerContext) => Promise<void>;
