// The local adapter of the jobs port: jobs are rows in graphile-worker's queue on our own
// PostgreSQL, picked up by startLocalRunner (LISTEN/NOTIFY, so within milliseconds).
import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import { findDefinition, maxAttemptsOf, type AnyJobSpec, type JobsPort } from './definition';
import { ensureJobSchema } from './job-schema';
import { withEnqueuingRequest } from './run-job';
import { quietLogger } from './worker-logger';

export interface LocalJobsOptions<Defs extends readonly AnyJobSpec[]> {
  connectionString: string;
  definitions: Defs;
}

export type LocalJobs<Defs extends readonly AnyJobSpec[]> = JobsPort<Defs> & {
  /** Releases the database pool (tests, scripts). */
  close(): Promise<void>;
};

export function createLocalJobs<Defs extends readonly AnyJobSpec[]>(options: LocalJobsOptions<Defs>): LocalJobs<Defs> {
  let utils: Promise<WorkerUtils> | undefined;

  function getUtils(): Promise<WorkerUtils> {
    if (!utils) {
      utils = (async () => {
        // Enqueueing must work before any runner has started (the schema may not exist yet).
        await ensureJobSchema(options.connectionString);
        return makeWorkerUtils({ connectionString: options.connectionString, maxPoolSize: 4, logger: quietLogger });
      })();
      utils.catch(() => (utils = undefined));
    }
    return utils;
  }

  return {
    async enqueue(name, payload, opts = {}) {
      const definition = findDefinition(options.definitions, name);
      // A bad payload is a programming error: fail at the caller, not later in a run.
      definition.schema.parse(payload);
      const worker = await getUtils();
      await worker.addJob(name as string, withEnqueuingRequest(payload), {
        runAt: opts.runAt,
        maxAttempts: maxAttemptsOf(definition),
        // "replace": a pending job with this key takes the new payload and runAt. If that job is
        // running right now, graphile-worker leaves it alone and queues this one separately.
        ...(opts.key ? { jobKey: opts.key, jobKeyMode: 'replace' as const } : {}),
      });
    },
    async enqueueMany(name, items) {
      if (items.length === 0) return;
      const definition = findDefinition(options.definitions, name);
      for (const item of items) definition.schema.parse(item.payload);
      const worker = await getUtils();
      // add_jobs: a key replaces the pending job's payload and runAt, like addJob's "replace".
      await worker.addJobs(
        items.map((item) => ({
          identifier: name as string,
          payload: withEnqueuingRequest(item.payload),
          runAt: item.runAt,
          maxAttempts: maxAttemptsOf(definition),
          ...(item.key ? { jobKey: item.key } : {}),
        })),
      );
    },
    async cancel(key) {
      const worker = await getUtils();
      // Deletes the pending job; a running one finishes but will not be retried.
      await worker.withPgClient((client) => client.query('select graphile_worker.remove_job($1)', [key]));
    },
    async close() {
      if (!utils) return;
      const pending = utils;
      utils = undefined;
      await (await pending).release();
    },
  };
}
