// Runs jobs in-process on graphile-worker (the embedded default). The app starts one runner
// at boot; several app processes may each run one against the same database, since
// graphile-worker hands each job to one worker only.
import { EventEmitter } from 'node:events';
import { parseCronItems, run, type JobHelpers, type Task, type TaskList, type WorkerEvents } from 'graphile-worker';
import { CRON_PAYLOAD, maxAttemptsOf, type AnyJobDefinition } from './definition';
import { registerCloser } from '@/server/db/connections';
import { ensureJobSchema } from './job-schema';
import { InvalidJobPayloadError, runJob } from './run-job';
import { quietLogger } from './worker-logger';

export interface LocalRunnerOptions {
  connectionString: string;
  /** Jobs run at the same time by this process. */
  concurrency?: number;
  /** The jobs to run, with their handlers (server/runtime/job-handlers.ts; tests pass their own). */
  definitions: readonly AnyJobDefinition[];
  /**
   * How often idle workers look for due jobs. New jobs arrive by LISTEN/NOTIFY at once; jobs
   * with a future runAt (and retries) are found by this poll, so it bounds their lateness.
   */
  pollIntervalMs?: number;
  /** On stop, how long running jobs get before their `ctx.signal` aborts. */
  shutdownAbortMs?: number;
}

export interface LocalRunner {
  /** Stops taking jobs, waits for running ones (aborting them after shutdownAbortMs), closes the pool. */
  stop(): Promise<void>;
}

function toTask(definition: AnyJobDefinition): Task {
  return async (payload: unknown, helpers: JobHelpers) => {
    const { job } = helpers;
    // Cron runs carry graphile-worker's `_cron` marker and nothing else of ours.
    const input = payload && typeof payload === 'object' && '_cron' in payload ? CRON_PAYLOAD : payload;
    try {
      await runJob(definition, input, { attempt: job.attempts, maxAttempts: job.max_attempts, signal: helpers.abortSignal });
    } catch (error) {
      if (error instanceof InvalidJobPayloadError) {
        // Retrying cannot fix a payload; log it and let the job complete.
        helpers.logger.error(error.message);
        return;
      }
      throw error;
    }
  };
}

/**
 * Resolves once the runner's LISTEN is active, so a job enqueued after startLocalRunner()
 * returns is picked up at once rather than at the next poll. graphile-worker announces the
 * listening connection just before sending LISTEN on it; a query queued behind that LISTEN
 * on the same connection completes only after it. Gives up quietly after a few seconds
 * (polling still finds jobs).
 */
function untilListening(events: WorkerEvents): Promise<void> {
  return new Promise<void>((resolve) => {
    const fallback = setTimeout(resolve, 5_000);
    fallback.unref();
    const done = () => {
      clearTimeout(fallback);
      resolve();
    };
    events.once('pool:listen:success', ({ client }) => {
      queueMicrotask(() => void client.query('select 1').then(done, done));
    });
  });
}

export async function startLocalRunner(options: LocalRunnerOptions): Promise<LocalRunner> {
  const definitions = options.definitions;
  const concurrency = options.concurrency ?? 4;
  await ensureJobSchema(options.connectionString);

  const taskList: TaskList = Object.fromEntries(definitions.map((d) => [d.name, toTask(d)]));
  const parsedCronItems = parseCronItems(
    definitions
      .filter((d) => d.cron)
      .map((d) => ({
        task: d.name,
        identifier: d.name,
        match: d.cron!,
        // No backfill: a missed minute of a safety-net drain is not worth catching up.
        options: { backfillPeriod: 0, maxAttempts: maxAttemptsOf(d) },
      })),
  );

  const events = new EventEmitter() as WorkerEvents;
  const listening = untilListening(events);
  const runner = await run({
    connectionString: options.connectionString,
    concurrency,
    maxPoolSize: concurrency + 2,
    taskList,
    parsedCronItems,
    pollInterval: options.pollIntervalMs ?? 1_000,
    gracefulShutdownAbortTimeout: options.shutdownAbortMs ?? 5_000,
    // The app owns signal handling and calls stop(); graphile-worker must not exit the process.
    noHandleSignals: true,
    logger: quietLogger,
    events,
    // By default graphile-worker records a job's success or failure without waiting for it, and
    // stop() can close the pool first: the job then stays locked for 4 hours. Batching (even
    // with no delay) makes stop() flush those writes before closing.
    // localQueue: the pool asks for jobs on behalf of all its workers, up to `concurrency` at a
    // time, so an idle instance costs one poll per interval (and a LISTEN wake-up per new job)
    // instead of one per worker — 32 queries a second at the default concurrency before.
    // Jobs fetched but not started return to the queue on stop(), like running ones.
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0, localQueue: { size: concurrency } } },
  });

  await listening;

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= runner.stop();
    return stopping;
  };
  // Shutdown (and the test harness, before dropping a database) stops runners left running.
  const unregister = registerCloser(stop);
  return {
    stop() {
      unregister();
      return stop();
    },
  };
}
