// The local adapter for real: graphile-worker on the test file's PostgreSQL database.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type AnyJobDefinition } from './definition';
import { createLocalJobs } from './local-jobs';
import { startLocalRunner, type LocalRunner } from './local-runner';
import { runnableJobs } from '@/server/runtime/job-handlers';
import { currentRequestId, withLogContext } from '@/server/observability/log';

const connectionString = process.env.DATABASE_URL!;

interface Run {
  job: string;
  payload: unknown;
  attempt: number;
  at: number;
}
const runs: Run[] = [];
const failNext = new Map<string, number>();
let releaseBlocked: (() => void) | undefined;

function recordingJob<const Name extends string>(name: Name, retries = 3) {
  return defineJob({
    name,
    schema: z.object({ n: z.number() }),
    retries,
    handler: async (payload, ctx) => {
      runs.push({ job: name, payload, attempt: ctx.attempt, at: Date.now() });
      const failures = failNext.get(name) ?? 0;
      if (failures > 0) {
        failNext.set(name, failures - 1);
        throw new Error(`planned failure of ${name}`);
      }
    },
  });
}

// Waits for the runner's shutdown signal, like a long job caught by a deploy.
const blockingJob = defineJob({
  name: 'test.blocking',
  schema: z.object({ n: z.number() }),
  retries: 3,
  handler: async (payload, ctx) => {
    runs.push({ job: 'test.blocking', payload, attempt: ctx.attempt, at: Date.now() });
    if (ctx.attempt > 1) return;
    await new Promise<void>((resolve, reject) => {
      releaseBlocked = resolve;
      ctx.signal.addEventListener('abort', () => reject(new Error('interrupted by shutdown')));
    });
  },
});

// Records the request id its log lines would carry.
const requestIds: Array<string | undefined> = [];
const tracedJob = defineJob({
  name: 'test.traced',
  schema: z.strictObject({ n: z.number() }),
  handler: async (payload) => {
    runs.push({ job: 'test.traced', payload, attempt: 1, at: Date.now() });
    requestIds.push(currentRequestId());
  },
});

const definitions = [
  tracedJob,
  recordingJob('test.now'),
  recordingJob('test.delayed'),
  recordingJob('test.flaky'),
  recordingJob('test.keyed'),
  recordingJob('test.batch'),
  recordingJob('test.cancelled'),
  recordingJob('test.offline'),
  blockingJob,
] as const satisfies readonly AnyJobDefinition[];

const jobs = createLocalJobs({ connectionString, definitions });
const runners: LocalRunner[] = [];

async function startRunner(pollIntervalMs = 100): Promise<LocalRunner> {
  const runner = await startLocalRunner({ connectionString, definitions, concurrency: 2, pollIntervalMs, shutdownAbortMs: 300 });
  runners.push(runner);
  return runner;
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the job');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const runsOf = (job: string) => runs.filter((r) => r.job === job);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});
afterAll(async () => {
  await jobs.close();
});

describe('local runner (graphile-worker on PostgreSQL)', () => {
  beforeAll(async () => {
    // Install the queue schema up front so the first test measures pickup, not migration.
    await startRunner().then((r) => r.stop());
    runners.length = 0;
  });

  it('runs a job under the id of the request that queued it, with its strict payload untouched', async () => {
    await startRunner();
    await withLogContext({ requestId: 'req-queued-it' }, () => jobs.enqueue('test.traced', { n: 7 }));
    await jobs.enqueue('test.traced', { n: 8 });
    await waitFor(() => requestIds.length === 2);
    const traced = runs.filter((r) => r.job === 'test.traced').sort((a, b) => (a.payload as { n: number }).n - (b.payload as { n: number }).n);
    expect(traced.map((r) => r.payload)).toEqual([{ n: 7 }, { n: 8 }]);
    expect([...requestIds].sort()).toEqual([undefined, 'req-queued-it'].sort());
  });

  it('picks a new job up at once through LISTEN/NOTIFY, not by polling', async () => {
    await startRunner(60_000);
    const enqueuedAt = Date.now();
    await jobs.enqueue('test.now', { n: 1 });
    await waitFor(() => runsOf('test.now').length === 1, 3_000);
    expect(runsOf('test.now')[0]).toMatchObject({ payload: { n: 1 }, attempt: 1 });
    expect(runsOf('test.now')[0]!.at - enqueuedAt).toBeLessThan(1_000);
  });

  it('honours runAt', async () => {
    await startRunner();
    const runAt = new Date(Date.now() + 1_200);
    await jobs.enqueue('test.delayed', { n: 2 }, { runAt });
    await sleep(800);
    expect(runsOf('test.delayed')).toHaveLength(0);
    await waitFor(() => runsOf('test.delayed').length === 1);
    const ranAt = runsOf('test.delayed')[0]!.at;
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime() - 50); // clock granularity between Node and PostgreSQL
    expect(ranAt - runAt.getTime()).toBeLessThan(1_500); // found by the 100 ms poll; slack for a loaded machine
  });

  it('retries a failed job after an exponential backoff', async () => {
    await startRunner();
    failNext.set('test.flaky', 1);
    await jobs.enqueue('test.flaky', { n: 3 });
    await waitFor(() => runsOf('test.flaky').length === 2, 15_000);
    const [first, second] = runsOf('test.flaky');
    expect(first!.attempt).toBe(1);
    expect(second!.attempt).toBe(2);
    // graphile-worker waits e^attempts seconds: about 2.7 s after the first failure.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2_500);
    await sleep(300);
    expect(runsOf('test.flaky')).toHaveLength(2);
  });

  it('replaces a pending job enqueued again with the same key: only the latest runs', async () => {
    await startRunner();
    const runAt = new Date(Date.now() + 700);
    await jobs.enqueue('test.keyed', { n: 1 }, { runAt, key: 'post:42:publish' });
    await jobs.enqueue('test.keyed', { n: 2 }, { runAt, key: 'post:42:publish' });
    await jobs.enqueue('test.keyed', { n: 3 }, { runAt: new Date(Date.now() + 900), key: 'post:42:publish' });
    await waitFor(() => runsOf('test.keyed').length >= 1);
    await sleep(800);
    expect(runsOf('test.keyed').map((r) => r.payload)).toEqual([{ n: 3 }]);
  });

  it('enqueues a batch in one call, keys replacing pending jobs as enqueue does', async () => {
    await startRunner();
    const runAt = new Date(Date.now() + 500);
    await jobs.enqueue('test.batch', { n: 10 }, { runAt, key: 'batch:a' });
    await jobs.enqueueMany('test.batch', [{ payload: { n: 11 }, runAt, key: 'batch:a' }, { payload: { n: 12 }, key: 'batch:b' }, { payload: { n: 13 } }]);
    await waitFor(() => runsOf('test.batch').length >= 3);
    await sleep(700);
    expect(runsOf('test.batch').map((r) => r.payload)).toEqual(expect.arrayContaining([{ n: 11 }, { n: 12 }, { n: 13 }]));
    expect(runsOf('test.batch')).toHaveLength(3);
    await expect(jobs.enqueueMany('test.batch', [{ payload: { n: 'x' } as never }])).rejects.toThrow();
  });

  it('cancels a pending job by key', async () => {
    await startRunner();
    await jobs.enqueue('test.cancelled', { n: 1 }, { runAt: new Date(Date.now() + 500), key: 'post:7:publish' });
    await jobs.cancel('post:7:publish');
    await sleep(1_200);
    expect(runsOf('test.cancelled')).toHaveLength(0);
  });

  it('runs a job enqueued while no runner was up once one starts', async () => {
    await jobs.enqueue('test.offline', { n: 9 });
    await sleep(300);
    expect(runsOf('test.offline')).toHaveLength(0);
    await startRunner();
    await waitFor(() => runsOf('test.offline').length === 1);
  });

  it('finishes a job interrupted by a shutdown when a new runner starts', async () => {
    const first = await startRunner();
    await jobs.enqueue('test.blocking', { n: 5 });
    await waitFor(() => runsOf('test.blocking').length === 1);
    // The job stops when the shutdown aborts it, and that attempt counts as failed.
    await first.stop();
    expect(runsOf('test.blocking')).toHaveLength(1);

    await startRunner();
    await waitFor(() => runsOf('test.blocking').length === 2, 15_000);
    expect(runsOf('test.blocking')[1]!.attempt).toBe(2);
    releaseBlocked?.();
  });

  it('rejects an invalid payload at enqueue time', async () => {
    // @ts-expect-error -- the registry types the payload; this checks the runtime guard too
    await expect(jobs.enqueue('test.now', { n: 'one' })).rejects.toThrow();
    // @ts-expect-error -- unknown job names do not type-check either
    await expect(jobs.enqueue('test.unknown', { n: 1 })).rejects.toThrow('Unknown job');
  });

  it('registers cron jobs of the registry with graphile-worker', async () => {
    const runner = await startLocalRunner({ connectionString, definitions: runnableJobs, concurrency: 1, pollIntervalMs: 60_000 });
    runners.push(runner);
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      const deadline = Date.now() + 5_000;
      let identifiers: string[] = [];
      while (Date.now() < deadline) {
        const { rows } = await client.query<{ identifier: string }>('select identifier from graphile_worker._private_known_crontabs');
        identifiers = rows.map((r) => r.identifier);
        if (identifiers.includes('outbox.drain')) break;
        await sleep(100);
      }
      expect(identifiers).toContain('outbox.drain');
    } finally {
      await client.end();
    }
  });
});
