// Background work inside the app process: the local job runner (graphile-worker on our
// PostgreSQL) unless Inngest is configured. A failure to start jobs is logged, never fatal:
// user-facing actions do not wait on the queue.
import { getJobs, startJobRunner } from '@/server/jobs';
import { env } from '@/server/config/env';
import { OUTBOX_DRAIN_KEY } from '@/server/events/kick-outbox';
import { runnableJobs } from './job-handlers';

let started: Promise<void> | undefined;

/** What the health endpoint reports about this process's job runner. */
export type JobRunnerState = 'not-started' | 'running' | 'stopped' | 'failed' | 'inngest';
let runnerState: JobRunnerState = 'not-started';
export const jobRunnerState = (): JobRunnerState => (env.inngestEnabled() ? 'inngest' : runnerState);

export function startBackgroundWork(): Promise<void> {
  started ??= (async () => {
    if (!env.databaseUrl()) {
      console.warn('[herald] DATABASE_URL is not set: background jobs are not running (start Herald with `npm start`)');
      return;
    }
    try {
      const runner = await startJobRunner({ jobs: runnableJobs, concurrency: env.jobsConcurrency() });
      runnerState = 'running';
      const stop = () => {
        runnerState = 'stopped';
        void runner.stop().catch((err: unknown) => console.error('[herald] job runner stop failed', err));
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      console.log('[herald] background jobs running');
      // Posts whose time passed while Herald was down go out now, not at the next cron minute.
      // So do webhook deliveries whose job was lost with the previous process, and events
      // committed but not yet drained.
      const jobs = getJobs();
      await Promise.all([
        jobs.enqueue('posts.catch-up', {}, { key: 'posts.catch-up:start' }),
        jobs.enqueue('webhooks.sweep', {}, { key: 'webhooks.sweep:start' }),
        jobs.enqueue('outbox.drain', {}, { key: OUTBOX_DRAIN_KEY }),
      ]).catch((err: unknown) => console.warn('[herald] could not queue the start-up catch-up', err));
    } catch (err) {
      runnerState = 'failed';
      console.error('[herald] could not start background jobs', err);
    }
  })();
  return started;
}
