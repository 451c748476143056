// The posting queue's wire shapes: weekly slots on the workspace's clock, shared by the REST
// routes, the app and the tools (server/queue/queue.router.ts).
import { z } from 'zod';
import { ZId, ZIdOf, ZText, ZNullableTimestamp, ZTimestamp } from '@/server/shared/schemas';

export const MAX_SLOTS = 100;

/** "09:30": a time of day, 24-hour clock. */
export const ZSlotTime = ZText.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM (00:00–23:59)')
  .describe('HH:MM, workspace time')
  .meta({ example: '09:30' });

export const ZSlot = z.strictObject({
  weekday: z.number().int().min(1).max(7).describe('1 Monday … 7 Sunday'),
  time: ZSlotTime,
});
export type Slot = z.infer<typeof ZSlot>;

export const ZSetSlotsInput = z
  .strictObject({
    connectionId: ZIdOf('connection', 'from connections_list')
      .nullable()
      .optional()
      .describe('Set this account’s own slots; absent: the workspace’s (for accounts without own)'),
    slots: z.array(ZSlot).max(MAX_SLOTS).describe('Replaces all current slots'),
  })
  .meta({
    example: {
      slots: [
        { weekday: 1, time: '09:30' },
        { weekday: 3, time: '12:00' },
      ],
    },
  });

export const ZQueueSlotsQuery = z.strictObject({
  days: z.number().int().min(1).max(28).optional().describe('Days ahead to list (default 7)'),
});

const ZSlotRecord = ZSlot.extend({ connectionId: ZId.nullable().describe('null: a workspace slot') });

export const ZUpcomingSlot = z.object({
  at: ZTimestamp.describe('The slot’s instant'),
  connectionId: ZId.describe('The account this slot is for'),
  postId: ZId.nullable().describe('The scheduled post taking the slot for this account; null: free'),
});

export const ZQueue = z
  .object({
    timeZone: z.string().describe('The workspace’s time zone, the clock the slots are on'),
    pausedAt: ZNullableTimestamp.describe('Set while the queue is paused: its posts are held, then moved to free slots on resume'),
    slots: z.array(ZSlotRecord).describe('The weekly slots set: the workspace’s (connectionId null) and each account’s own'),
    upcoming: z.array(ZUpcomingSlot).describe('The next days’ slot instants per active account, with the post taking each'),
  })
  .meta({
    example: {
      timeZone: 'Europe/Paris',
      pausedAt: null,
      slots: [{ connectionId: null, weekday: 1, time: '09:30' }],
      upcoming: [{ at: '2026-11-30T08:30:00.000Z', connectionId: '3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c', postId: null }],
    },
  });
export type QueueDto = z.infer<typeof ZQueue>;

export const ZQueueChange = z
  .object({
    moved: z
      .array(
        z.object({
          postId: ZId.describe('The queued post moved'),
          from: ZNullableTimestamp.describe('The time it was scheduled for before, in ISO 8601'),
          to: ZTimestamp.describe('The time it is scheduled for now: the free slot it was given, in ISO 8601'),
        }),
      )
      .describe('Posts given another slot, in time order'),
    pausedAt: ZNullableTimestamp.describe('When the queue was paused, in ISO 8601; null while it runs (always null after a resume)'),
  })
  .meta({
    example: { moved: [{ postId: '5b0f8f8e-2c7a-4c1e-9a57-0f6a1d3c2b11', from: '2026-11-30T08:30:00.000Z', to: '2026-12-02T11:00:00.000Z' }], pausedAt: null },
  });
