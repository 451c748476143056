// The jobs port. Every piece of background work is enqueued through getJobs(); which adapter
// runs it is decided by configuration:
//   - Inngest when INNGEST_EVENT_KEY or INNGEST_SIGNING_KEY is set (functions served at /api/inngest);
//   - otherwise the local graphile-worker queue on DATABASE_URL, run in-process (startJobRunner).
import { inngest } from '@/inngest/client';
import { env } from '@/server/config/env';
import { registerCloser } from '@/server/db/connections';
import type { JobsPort } from './definition';
import { createInngestJobs } from './inngest-jobs';
import { createLocalJobs, type LocalJobs } from './local-jobs';
import { startLocalRunner } from './local-runner';
import { jobDefinitions, type JobDefinitions } from './registry';

export type Jobs = JobsPort<JobDefinitions>;
export type { EnqueueOptions, JobContext, JobDefinition } from './definition';
export { jobDefinitions, type JobName, type JobPayload } from './registry';
export { startLocalRunner, type LocalRunner, type LocalRunnerOptions } from './local-runner';

let inngestJobs: Jobs | undefined;
let localJobs: { url: string; jobs: LocalJobs<JobDefinitions> } | undefined;

export function getJobs(): Jobs {
  if (env.inngestEnabled()) {
    inngestJobs ??= createInngestJobs(inngest, { definitions: jobDefinitions });
    return inngestJobs;
  }
  const url = env.databaseUrl();
  if (!url) throw new Error('DATABASE_URL is not set: the local job queue lives in the database');
  // Keyed by URL because tests switch databases between files.
  if (localJobs?.url !== url) {
    void localJobs?.jobs.close();
    localJobs = { url, jobs: createLocalJobs({ connectionString: url, definitions: jobDefinitions }) };
    registerCloser(closeJobs);
  }
  return localJobs.jobs;
}

/**
 * Starts whatever runs jobs in this process: the local runner, or nothing under Inngest (which
 * calls /api/inngest instead). The app calls this once at boot and `stop()` on SIGTERM/SIGINT.
 */
export async function startJobRunner(options: { concurrency?: number } = {}): Promise<{ stop(): Promise<void> }> {
  if (env.inngestEnabled()) return { stop: async () => undefined };
  const url = env.databaseUrl();
  if (!url) throw new Error('DATABASE_URL is not set: the local job queue lives in the database');
  return startLocalRunner({ connectionString: url, concurrency: options.concurrency });
}

/** Releases the local queue's database pool (shutdown, end of a test file). */
export async function closeJobs(): Promise<void> {
  const current = localJobs;
  localJobs = undefined;
  await current?.jobs.close();
}
