// Writes a domain event to the outbox inside the caller's transaction, so the event exists
// if and only if the change that caused it committed. Delivery happens later (drain-outbox.ts).
import type { Prisma } from '@/server/generated/prisma/client';
import type { Tx } from '@/server/db/client';
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
    },
    select: { id: true },
  });
  return row.id;
}
