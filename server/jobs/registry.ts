// Every background job Herald has. Adding a job is one entry here: a name, a payload schema
// and a handler that calls a service. Both adapters (local runner, Inngest) are generated
// from this list.
import { z } from 'zod';
import { drainOutbox } from '@/server/events/drain-outbox';
import { purgeExpiredIdempotencyRecords } from '@/server/idempotency/idempotency';
import { catchUpScheduledPosts, runScheduledDelivery } from '@/server/publishing/scheduled-delivery';
import { defineJob, type JobNameOf, type JobPayloadOf } from './definition';

export const jobDefinitions = [
  defineJob({
    name: 'outbox.drain',
    schema: z.object({}),
    // Every minute as a safety net; also enqueued right after commits (kickOutboxDrain).
    cron: '* * * * *',
    retries: 3,
    handler: async () => {
      await drainOutbox();
    },
  }),
  defineJob({
    name: 'posts.deliver',
    schema: z.object({ postId: z.uuid(), scheduleVersion: z.number().int() }),
    retries: 5,
    handler: async ({ postId, scheduleVersion }) => {
      await runScheduledDelivery(postId, scheduleVersion);
    },
  }),
  defineJob({
    name: 'posts.catch-up',
    schema: z.object({}),
    // Delivers scheduled posts whose job went missing (queue down, app down at their time).
    cron: '* * * * *',
    retries: 1,
    handler: async () => {
      await catchUpScheduledPosts();
    },
  }),
  defineJob({
    name: 'idempotency.purge',
    schema: z.object({}),
    cron: '17 * * * *',
    retries: 1,
    handler: async () => {
      await purgeExpiredIdempotencyRecords();
    },
  }),
] as const;

export type JobDefinitions = typeof jobDefinitions;
export type JobName = JobNameOf<JobDefinitions>;
export type JobPayload<N extends JobName> = JobPayloadOf<JobDefinitions, N>;
