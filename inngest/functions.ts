// One Inngest function per catalogue job, generated, so the handlers stay plain functions that
// the local runner runs too. Each function:
//   - is triggered by `herald/<job name>` (and by its cron, if it has one);
//   - sleeps until `runAt` when the event carries one;
//   - is cancelled by a newer event with the same key (reschedule) or by `herald/job.cancel`;
//   - retries as many times as the definition says.
import { NonRetriableError, type Inngest } from 'inngest';
import { CRON_PAYLOAD, DEFAULT_RETRIES, maxAttemptsOf, type AnyJobDefinition } from '@/server/jobs/definition';
import { jobEventName, JOB_CANCEL_EVENT, type JobEventData } from '@/server/jobs/inngest-events';
import { InvalidJobPayloadError, runJob } from '@/server/jobs/run-job';
import { runnableJobs } from '@/server/runtime/job-handlers';
import { inngest } from './client';

type Retries = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20;

// Inngest runs never get a shutdown signal; handlers receive one that never aborts.
const NEVER = new AbortController().signal;

export function createJobFunction(client: Inngest.Any, definition: AnyJobDefinition) {
  const eventName = jobEventName(definition.name);
  const retries = Math.min(20, Math.max(0, definition.retries ?? DEFAULT_RETRIES)) as Retries;
  return client.createFunction(
    {
      id: definition.name.replace(/[^a-z0-9-]/gi, '-'),
      name: definition.name,
      retries,
      triggers: definition.cron ? [{ event: eventName }, { cron: definition.cron }] : [{ event: eventName }],
      cancelOn: [
        // Same key, different enqueue: a newer enqueue replaced this one.
        { event: eventName, if: 'async.data.key == event.data.key && async.data.enqueueId != event.data.enqueueId' },
        { event: JOB_CANCEL_EVENT, if: 'async.data.key == event.data.key' },
      ],
    },
    async ({ event, step, attempt }) => {
      // A cron run is triggered by `inngest/scheduled.timer`, which carries none of our data.
      const data = event.name === eventName ? (event.data as JobEventData) : undefined;
      if (data?.runAt) await step.sleepUntil('wait-for-run-at', data.runAt);
      await step.run('run-job', async () => {
        try {
          await runJob(definition, data ? data.payload : CRON_PAYLOAD, {
            attempt: attempt + 1,
            maxAttempts: maxAttemptsOf(definition),
            signal: NEVER,
          });
        } catch (error) {
          if (error instanceof InvalidJobPayloadError) throw new NonRetriableError(error.message, { cause: error });
          throw error;
        }
      });
    },
  );
}

export const functions = runnableJobs.map((definition) => createJobFunction(inngest, definition));
