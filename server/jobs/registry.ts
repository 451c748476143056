// Every background job Herald has. Adding a job is one entry here: a name, a payload schema
// and a handler that calls a service. Both adapters (local runner, Inngest) are generated
// from this list.
import { z } from 'zod';
import { drainOutbox } from '@/server/events/drain-outbox';
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
] as const;

export type JobDefinitions = typeof jobDefinitions;
export type JobName = JobNameOf<JobDefinitions>;
export type JobPayload<N extends JobName> = JobPayloadOf<JobDefinitions, N>;
