// The jobs port. Every piece of background work is enqueued through getJobs(); which adapter
// runs it is decided by configuration:
//   - Inngest when INNGEST_EVENT_KEY or INNGEST_SIGNING_KEY is set (functions served at /api/inngest);
//   - otherwise the local graphile-worker queue on DATABASE_URL, run in-process (startJobRunner).
import { inngest } from '@/inngest/client';
import { env } from '@/server/config/env';
import { registerCloser } from '@/server/db/connections';
import type { AnyJobDefinition, JobsPort } from './definition';
import { createInngestJobs } from './inngest-jobs';
import { createLocalJobs, type LocalJobs } from './local-jobs';
import { startLocalRunner } from './local-runner';
import { jobCatalogue, type JobCatalogue } from './catalogue';

export type Jobs = JobsPort<JobCatalogue>;
export type { EnqueueOptions, JobContext, JobDefinition, JobSpec } from './definition';
export { jobCatalogue, WEBHOOK_DELIVERIES_PER_JOB, type JobName, type JobPayload } from './catalogue';
export { startLocalRunner, type LocalRunner, type LocalRunnerOptions } from './local-runner';

let inngestJobs: Jobs | undefined;
let localJobs: { url: string; jobs: LocalJobs<JobCatalogue> } | undefined;

export function getJobs(): Jobs {
  if (env.inngestEnabled()) {
    inngestJobs ??= createInngestJobs(inngest, { definitions: jobCatalogue });
    return inngestJobs;
  }
  const url = env.databaseUrl();
  if (!url) throw new Error('DATABASE_URL is not set: the local job queue lives in the database');
  // Keyed by URL because tests switch databases between files.
  if (localJobs?.url !== url) {
    void localJobs?.jobs.close();
    localJobs = { url, jobs: createLocalJobs({ connectionString: url, definitions: jobCatalogue }) };
    registerCloser(closeJobs);
  }
  return localJobs.jobs;
}

/**
 * Starts whatever runs jobs in this process: the local runner, or nothing under Inngest (which
 * calls /api/inngest instead). The app calls this once at boot with the bound handlers
 * (server/runtime/job-handlers.ts) and `stop()` on SIGTERM/SIGINT.
 */
export async function startJobRunner(options: { jobs: readonly AnyJobDefinition[]; concurrency?: number }): Promise<{ stop(): Promise<void> }> {
  if (env.inngestEnabled()) return { stop: async () => undefined };
  const url = env.databaseUrl();
  if (!url) throw new Error('DATABASE_URL is not set: the local job queue lives in the database');
  return startLocalRunner({ connectionString: url, concurrency: options.concurrency, definitions: options.jobs });
}

/** Releases the local queue's database pool (shutdown, end of a test file). */
export async function closeJobs(): Promise<void> {
  const current = localJobs;
  localJobs = undefined;
  await current?.jobs.close();
}
