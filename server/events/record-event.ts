// Writes a domain event to the outbox inside the caller's transaction, so the event exists
// if and only if the change that caused it committed. Delivery happens later (drain-outbox.ts).
import { Prisma as PrismaSql, type Prisma } from '@/server/generated/prisma/client';
import type { Tx } from '@/server/db/client';
import { currentRequestId } from '@/server/observability/log';
import type { DomainEventData, DomainEventType } from './catalogue';

export interface RecordEventInput<T extends DomainEventType> {
  workspaceId: string;
  type: T;
  data: DomainEventData[T];
}

/** Returns the outbox row id. Call kickOutboxDrain() after the transaction commits. */
export async function recordEvent<T extends DomainEventType>(tx: Tx, input: RecordEventInput<T>): Promise<string> {
  const row = await tx.outboxEvent.create({
    data: {
      workspaceId: input.workspaceId,
      type: input.type,
      data: input.data as Prisma.InputJsonValue,
      requestId: currentRequestId() ?? null,
    },
    select: { id: true },
  });
  return row.id;
}

/**
 * The same outbox row as recordEvent, as an INSERT to embed in a single-statement write
 * (a CTE that changes a row and records its event atomically, in one round trip). Hot paths
 * such as per-target delivery outcomes use it.
 */
export function outboxInsertSql<T extends DomainEventType>(input: RecordEventInput<T>, when?: Prisma.Sql): Prisma.Sql {
  // `when` makes the event conditional on the statement's own change (e.g. `EXISTS (SELECT 1
  // FROM t)`): the event is written exactly when the row it reports on changed.
  return PrismaSql.sql`INSERT INTO "OutboxEvent" ("id", "workspaceId", "type", "data", "requestId") SELECT gen_random_uuid(), ${input.workspaceId}::uuid, ${input.type}, ${JSON.stringify(input.data)}::jsonb, ${currentRequestId() ?? null} WHERE ${when ?? PrismaSql.sql`TRUE`}`;
}
