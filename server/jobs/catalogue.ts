// Every background job Herald has, without handlers: a name, a payload schema, retries and
// an optional schedule. Domain code enqueues against this list through getJobs(); the
// handlers are bound in server/runtime/job-handlers.ts, which both runners are given.
// Adding a job is one entry here and one handler there (the compiler insists on both).
import { z } from 'zod';
import { defineJobSpec, type JobNameOf, type JobPayloadOf } from './definition';

/** Deliveries one `webhooks.deliver` job sends side by side (an event's endpoints; a workspace rarely has more). */
export const WEBHOOK_DELIVERIES_PER_JOB = 10;

export const jobCatalogue = [
  defineJobSpec({
    name: 'outbox.drain',
    schema: z.object({}),
    // Every minute as a safety net; also enqueued right after commits (kickOutboxDrain).
    cron: '* * * * *',
    retries: 3,
  }),
  defineJobSpec({
    name: 'posts.deliver',
    schema: z.object({ postId: z.uuid(), scheduleVersion: z.number().int() }),
    retries: 5,
  }),
  defineJobSpec({
    name: 'posts.catch-up',
    schema: z.object({}),
    // Delivers scheduled posts whose job went missing and takes over lapsed deliveries.
    cron: '* * * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'webhooks.deliver',
    // One attempt of each delivery it carries (an event's endpoints, or one delivery); retries
    // (+10 s, +1 min) are new jobs. The job itself fails only when the database does. A job
    // queued before deliveries were grouped carries `deliveryId` and still runs.
    schema: z.union([
      z.object({ deliveryIds: z.array(z.uuid()).min(1).max(WEBHOOK_DELIVERIES_PER_JOB) }),
      z.object({ deliveryId: z.uuid() }).transform(({ deliveryId }) => ({ deliveryIds: [deliveryId] })),
    ]),
    retries: 5,
  }),
  defineJobSpec({
    name: 'webhooks.sweep',
    schema: z.object({}),
    // Queues again deliveries whose job went missing (crash, queue unreachable).
    cron: '* * * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'webhooks.prune',
    schema: z.object({}),
    cron: '41 * * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'proposals.execute',
    schema: z.object({ actionId: z.uuid() }),
    // Runs a confirmed staged action once: the call carries an Idempotency-Key of the action,
    // so a retried job replays the first result instead of acting twice.
    retries: 5,
  }),
  defineJobSpec({
    name: 'proposals.sweep',
    schema: z.object({}),
    // Expires undecided staged actions; queues again confirmed ones whose run went missing.
    cron: '* * * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'workflows.run',
    schema: z.object({ runId: z.uuid() }),
    // A finished run is left alone and an interrupted one continues from its saved progress.
    retries: 3,
  }),
  defineJobSpec({
    name: 'workflows.sweep',
    schema: z.object({}),
    cron: '* * * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'analytics.sync-ads',
    schema: z.object({}),
    // Daily: queues one sync per ad account (keyed per account and day).
    cron: '15 3 * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'analytics.sync-account',
    schema: z.object({ accountId: z.uuid() }),
    // A platform failure is recorded on the account and does not fail the job; a database
    // failure does, and the retry rewrites the same days.
    retries: 3,
  }),
  defineJobSpec({
    name: 'metrics.sweep',
    schema: z.object({}),
    // Every ten minutes: queues one metrics.collect per connection with published posts due
    // for a reading (POST_METRICS_SCHEDULE after publishing), skipping connections that failed
    // within POST_METRICS_RETRY_MINUTES.
    cron: '*/10 * * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'metrics.collect',
    // One connection's due readings, several posts per request; with targetIds, a reading of
    // those targets now (on demand). A network failure is recorded on the connection and does
    // not fail the job; a database failure does, and the retry writes each slot once.
    schema: z.object({ connectionId: z.uuid(), targetIds: z.array(z.uuid()).min(1).max(100).optional() }),
    retries: 3,
  }),
  defineJobSpec({
    name: 'inbox.sweep',
    schema: z.object({}),
    // Every five minutes: queues one inbox.collect per account with published posts due a
    // comments read (COMMENTS_SCHEDULE by the post's age), skipping accounts that just failed.
    cron: '*/5 * * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'inbox.collect',
    // One account's due posts (or, with targetIds, those posts now): their comments read and
    // only the difference written. A network failure is recorded on the account and does not
    // fail the job; a database failure does, and the retry writes each comment once.
    schema: z.object({ connectionId: z.uuid(), targetIds: z.array(z.uuid()).min(1).max(100).optional() }),
    retries: 3,
  }),
  defineJobSpec({
    name: 'inbox.conversations',
    // One account's direct messages (from where the last read stopped) and reviews, read and
    // stored (collect-conversations.ts); `kinds` narrows it (a Google review notification).
    // A network failure is recorded on the account and does not fail the job; a database
    // failure does, and the retry writes each item once.
    schema: z.object({
      connectionId: z.uuid(),
      kinds: z
        .array(z.enum(['message', 'review']))
        .min(1)
        .optional(),
    }),
    retries: 3,
  }),
  defineJobSpec({
    name: 'crawl.run',
    schema: z.object({}),
    // Every six hours: visits every tracked page of every workspace (robots.txt, per-host delay).
    cron: '7 */6 * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'crawl.site',
    schema: z.object({ siteId: z.uuid() }),
    // "Crawl now" in the app: one site's pages, with the same robots.txt and per-host delay.
    retries: 1,
  }),
  defineJobSpec({
    name: 'feeds.check',
    schema: z.object({}),
    // Every fifteen minutes: reads each active feed not read for 15 minutes; new items become posts.
    cron: '*/15 * * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'evergreen.requeue',
    schema: z.object({}),
    // Every fifteen minutes: each evergreen post whose next repeat is due gets it queued (or waits, or ends).
    cron: '*/15 * * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'agencies.purge',
    schema: z.object({}),
    // Daily: the rows of agencies deleted more than the grace period ago.
    cron: '29 4 * * *',
    retries: 1,
  }),
  defineJobSpec({
    name: 'idempotency.purge',
    schema: z.object({}),
    cron: '17 * * * *',
    retries: 1,
  }),
] as const;

export type JobCatalogue = typeof jobCatalogue;
export type JobName = JobNameOf<JobCatalogue>;
export type JobPayload<N extends JobName> = JobPayloadOf<JobCatalogue, N>;
