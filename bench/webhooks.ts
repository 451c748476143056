// Webhook delivery through the real path — event committed to the outbox, drained, fanned out
// to delivery rows, one job per event on the local runner, signed and POSTed through the
// guarded client — to a local HTTPS receiver (self-signed, on 127.0.0.1). Prints:
//   1. throughput: EVENTS events at once, each to ENDPOINTS endpoints; deliveries per second
//      from the first commit to the last delivery received;
//   2. latency: RATE events per second for SECONDS seconds (below capacity, as in normal
//      operation); p50/p95/max delay from each event's commit to its first attempt arriving.
// Targets on a 2-core machine: ≥ 500 deliveries/s; at 250 deliveries/s p50 < 200 ms, p95 < 1 s.
//   npx tsx bench/webhooks.ts   (EVENTS=2000 ENDPOINTS=5 RATE=50 SECONDS=10 CONCURRENCY=32 POLL_MS=500)
// VERBOSE=1 prints where the pipeline stands every second. POLL_MS=3600000 shows that nothing
// depends on the runner's poll: every step is started by a wake-up.
//
// It cannot hang: every wait is bounded and fails naming what it waited for (and where the
// pipeline stood), a run that stops making progress for STALL_S seconds (default 60) fails
// the same way, and the receiver process ends with this one on every exit path (it also
// exits by itself when this process dies, its IPC channel closing).
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { bounded, withBenchDatabase } from './bench-database';

const EVENTS = Number(process.env.EVENTS ?? 2_000);
const ENDPOINTS = Number(process.env.ENDPOINTS ?? 5);
const RATE = Number(process.env.RATE ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? process.env.JOBS_CONCURRENCY ?? 32);
const POLL_MS = Number(process.env.POLL_MS ?? 500);
const STALL_MS = Number(process.env.STALL_S ?? 60) * 1000;
const EMBEDDED = !process.env.DATABASE_URL;
process.env.WEBHOOK_SECRET_KEY ||= randomBytes(32).toString('base64url');
process.env.DATABASE_POOL_SIZE ??= '24';

// The receiver runs in its own process (bench/webhook-receiver-process.ts) and reports first arrivals.
const child = fork(new URL('./webhook-receiver-process.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const stopReceiver = () => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
};
process.on('exit', stopReceiver);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    stopReceiver();
    process.exit(130);
  });
}

const receiver = await bounded(
  new Promise<{ port: number; cert: string; url: string }>((resolve, reject) => {
    child.once('message', resolve as (m: unknown) => void);
    child.once('exit', (code) => reject(new Error(`the receiver process exited (${code}) before it listened`)));
  }),
  30_000,
  'the receiver process to listen',
);
/** postId → commit time, and the first arrival per delivery id. */
const committedAt = new Map<string, number>();
const firstArrival = new Map<string, number>();
const delays: number[] = [];
child.on('message', (message: { arrivals?: [string, string, number][] }) => {
  for (const [deliveryId, postId, receivedAt] of message.arrivals ?? []) {
    firstArrival.set(deliveryId, receivedAt);
    const committed = committedAt.get(postId);
    if (committed !== undefined) delays.push(receivedAt - committed);
  }
});

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

try {
  await withBenchDatabase(async (url) => {
    const { db } = await import('@/server/db/client');
    const { recordEvent } = await import('@/server/events/record-event');
    const { kickOutboxDrain } = await import('@/server/events/kick-outbox');
    const { startLocalRunner } = await import('@/server/jobs');
    const { runnableJobs } = await import('@/server/runtime/job-handlers');
    const { createOutboundClient } = await import('@/server/outbound');
    const { useWebhookTransport } = await import('@/server/webhooks/transport');
    const { createEndpoint } = await import('@/server/webhooks/endpoints');

    /** Where the pipeline stands: events not drained, delivery rows, queued jobs, the first job error. */
    const pipeline = async () => {
      const [row] = await db.$queryRaw<{ outbox: number; deliveries: number; jobs: number; error: string | null }[]>`
        SELECT (SELECT count(*)::int FROM "OutboxEvent" WHERE "dispatchedAt" IS NULL) AS outbox,
               (SELECT count(*)::int FROM "WebhookDelivery") AS deliveries,
               (SELECT count(*)::int FROM graphile_worker.jobs) AS jobs,
               (SELECT last_error FROM graphile_worker.jobs WHERE last_error IS NOT NULL LIMIT 1) AS error`;
      return `outbox ${row!.outbox} not drained, ${row!.deliveries} delivery rows, ${row!.jobs} jobs queued, ${firstArrival.size} received${row!.error ? `; a job failed: ${row!.error.slice(0, 300)}` : ''}`;
    };

    /** Waits for `done`; fails naming `what` after `timeoutMs`, or once nothing arrived for STALL_MS. */
    const waitUntil = async (done: () => boolean, what: string, timeoutMs = 300_000) => {
      const deadline = Date.now() + timeoutMs;
      let progress = firstArrival.size;
      let progressAt = Date.now();
      while (!done()) {
        if (firstArrival.size !== progress) [progress, progressAt] = [firstArrival.size, Date.now()];
        const stalled = Date.now() - progressAt > STALL_MS;
        if (stalled || Date.now() > deadline) {
          const state = await bounded(pipeline(), 10_000, 'the pipeline state').catch((e: Error) => e.message);
          throw new Error(
            `${stalled ? `no delivery arrived for ${STALL_MS / 1000} s` : `timed out after ${timeoutMs / 1000} s`} waiting for ${what}: ${state}`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    const [server] = await db.$queryRaw<{ version: string }[]>`SELECT current_setting('server_version') AS version`;
    console.log(
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; PostgreSQL ${server!.version} (${EMBEDDED ? 'embedded' : 'DATABASE_URL'})`,
    );

    const client = createOutboundClient({ ca: receiver.cert, allowHosts: ['127.0.0.1'] });
    useWebhookTransport({ client });
    const workspace = await db.workspace.create({ data: { name: 'Bench', slug: `bench-${randomBytes(4).toString('hex')}` } });
    for (let i = 0; i < ENDPOINTS; i++) {
      await createEndpoint(workspace.id, { name: `bench ${i}`, url: `${receiver.url}/hook-${i}`, events: ['post.approval_required'] });
    }
    const runner = await bounded(
      startLocalRunner({ connectionString: url, definitions: runnableJobs, concurrency: CONCURRENCY, pollIntervalMs: POLL_MS }),
      30_000,
      'the job runner to start',
    );

    /** One change committing its event, as the posts domain does, then the kick. */
    const emit = async () => {
      const postId = randomUUID();
      await bounded(
        db.$transaction((tx) => recordEvent(tx, { workspaceId: workspace.id, type: 'post.approval_required', data: { postId } })),
        30_000,
        'an event to commit',
      );
      committedAt.set(postId, Date.now());
      void kickOutboxDrain();
    };

    // Warm-up (pools, TLS sessions, module loading): not measured.
    for (let i = 0; i < 20; i++) await emit();
    await waitUntil(() => firstArrival.size >= 20 * ENDPOINTS, 'the warm-up');

    // 1. Throughput.
    committedAt.clear();
    const before = firstArrival.size;
    const started = performance.now();
    for (let i = 0; i < EVENTS; i += 50) await Promise.all(Array.from({ length: Math.min(50, EVENTS - i) }, emit));
    const emitted = performance.now() - started;
    const probe = process.env.VERBOSE
      ? setInterval(() => void pipeline().then((state) => console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s: ${state}`)), 1_000)
      : undefined;
    await waitUntil(() => firstArrival.size - before >= EVENTS * ENDPOINTS, 'the burst');
    clearInterval(probe);
    const seconds = (performance.now() - started) / 1000;
    const throughput = (EVENTS * ENDPOINTS) / seconds;
    const notDelivered = await db.webhookDelivery.count({ where: { status: { not: 'delivered' } } });

    // 2. Latency at a steady rate.
    delays.length = 0;
    committedAt.clear();
    const steadyBefore = firstArrival.size;
    const total = RATE * SECONDS;
    const t0 = performance.now();
    // A change whose commit failed has no event to deliver: counted, reported, not waited for.
    const failedCommits: string[] = [];
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      emit().catch((error: Error) => failedCommits.push(error.message));
    }
    await waitUntil(() => firstArrival.size - steadyBefore >= (total - failedCommits.length) * ENDPOINTS, 'the steady run');
    if (failedCommits.length) console.log(`${failedCommits.length} of ${total} commits failed (first: ${failedCommits[0]})`);

    await bounded(runner.stop(), 30_000, 'the job runner to stop');
    await client.close();
    useWebhookTransport(undefined);

    const p50 = percentile(delays, 50);
    const p95 = percentile(delays, 95);
    console.log(`receiver: https://127.0.0.1 (self-signed), ${ENDPOINTS} endpoints; runner concurrency ${CONCURRENCY}, poll ${POLL_MS} ms`);
    console.log(
      `throughput: ${EVENTS} events × ${ENDPOINTS} endpoints = ${EVENTS * ENDPOINTS} deliveries in ${seconds.toFixed(1)} s (events committed in ${(emitted / 1000).toFixed(1)} s): ${throughput.toFixed(0)} deliveries/s; not delivered: ${notDelivered}`,
    );
    console.log(
      `latency: ${RATE} events/s for ${SECONDS} s (${RATE * ENDPOINTS} deliveries/s), commit → first attempt: p50 ${p50} ms, p95 ${p95} ms, max ${Math.max(...delays)} ms (${delays.length} deliveries)`,
    );
    console.log(
      `target ≥ 500 deliveries/s: ${throughput >= 500 ? 'OK' : 'UNDER TARGET'}; target p50 < 200 ms: ${p50 < 200 ? 'OK' : 'OVER TARGET'}; target p95 < 1 s: ${p95 < 1000 ? 'OK' : 'OVER TARGET'}`,
    );
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  stopReceiver();
}
// The database and pools are closed by withBenchDatabase; anything a failure left open must
// not keep the process alive.
process.exit(process.exitCode ?? 0);
