// Webhook delivery through the real path — event committed to the outbox, drained, fanned out
// to delivery rows, one job each on the local runner, signed and POSTed through the guarded
// client — to a local HTTPS receiver (self-signed, on 127.0.0.1). Prints:
//   1. throughput: EVENTS events at once, each to ENDPOINTS endpoints; deliveries per second
//      from the first commit to the last delivery received;
//   2. latency: RATE events per second for SECONDS seconds (below capacity, as in normal
//      operation); p50/p95/max delay from each event's commit to its first attempt arriving.
// Targets on this 2-core machine: ≥ 500 deliveries/s, p95 < 1 s.
//   npx tsx bench/webhooks.ts   (EVENTS=2000 ENDPOINTS=5 RATE=50 SECONDS=10 CONCURRENCY=32)
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { withBenchDatabase } from './bench-database';

const EVENTS = Number(process.env.EVENTS ?? 2_000);
const ENDPOINTS = Number(process.env.ENDPOINTS ?? 5);
const RATE = Number(process.env.RATE ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? process.env.JOBS_CONCURRENCY ?? 32);
process.env.WEBHOOK_SECRET_KEY ||= randomBytes(32).toString('base64url');
process.env.DATABASE_POOL_SIZE ??= '24';

// The receiver runs in its own process (bench/webhook-receiver-process.ts) and reports first arrivals.
const child = fork(new URL('./webhook-receiver-process.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const receiver = await new Promise<{ port: number; cert: string; url: string }>((resolve) => child.once('message', resolve as (m: unknown) => void));
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

const waitUntil = async (done: () => boolean, what: string, timeoutMs = 300_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
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

    const client = createOutboundClient({ ca: receiver.cert, allowHosts: ['127.0.0.1'] });
    useWebhookTransport({ client });
    const workspace = await db.workspace.create({ data: { name: 'Bench', slug: `bench-${randomBytes(4).toString('hex')}` } });
    for (let i = 0; i < ENDPOINTS; i++) {
      await createEndpoint(workspace.id, { name: `bench ${i}`, url: `${receiver.url}/hook-${i}`, events: ['post.approval_required'] });
    }
    const runner = await startLocalRunner({ connectionString: url, definitions: runnableJobs, concurrency: CONCURRENCY, pollIntervalMs: Number(process.env.POLL_MS ?? 500) });

    /** One change committing its event, as the posts domain does, then the kick. */
    const emit = async () => {
      const postId = randomUUID();
      await db.$transaction((tx) => recordEvent(tx, { workspaceId: workspace.id, type: 'post.approval_required', data: { postId } }));
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
    // VERBOSE=1: where the pipeline stands every second (outbox not drained, rows, queued jobs).
    const probe = process.env.VERBOSE
      ? setInterval(async () => {
          const [row] = await db.$queryRaw<{ outbox: number; deliveries: number; jobs: number; error: string | null }[]>`
            SELECT (SELECT count(*)::int FROM "OutboxEvent" WHERE "dispatchedAt" IS NULL) AS outbox,
                   (SELECT count(*)::int FROM "WebhookDelivery") AS deliveries,
                   (SELECT count(*)::int FROM graphile_worker.jobs) AS jobs,
                   (SELECT last_error FROM graphile_worker.jobs WHERE last_error IS NOT NULL LIMIT 1) AS error`;
          console.log(
            `  ${((performance.now() - started) / 1000).toFixed(1)} s: outbox ${row!.outbox}, deliveries ${row!.deliveries}, jobs ${row!.jobs}, received ${firstArrival.size - before}${row!.error ? `; a job failed: ${row!.error.slice(0, 300)}` : ''}`,
          );
        }, 1_000)
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
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      void emit();
    }
    await waitUntil(() => firstArrival.size - steadyBefore >= total * ENDPOINTS, 'the steady run');

    await runner.stop();
    await client.close();
    useWebhookTransport(undefined);

    const p95 = percentile(delays, 95);
    console.log(`receiver: https://127.0.0.1 (self-signed), ${ENDPOINTS} endpoints; runner concurrency ${CONCURRENCY}`);
    console.log(
      `throughput: ${EVENTS} events × ${ENDPOINTS} endpoints = ${EVENTS * ENDPOINTS} deliveries in ${seconds.toFixed(1)} s (events committed in ${(emitted / 1000).toFixed(1)} s): ${throughput.toFixed(0)} deliveries/s; not delivered: ${notDelivered}`,
    );
    console.log(
      `latency: ${RATE} events/s for ${SECONDS} s (${RATE * ENDPOINTS} deliveries/s), commit → first attempt: p50 ${percentile(delays, 50)} ms, p95 ${p95} ms, max ${Math.max(...delays)} ms (${delays.length} deliveries)`,
    );
    console.log(`target ≥ 500 deliveries/s: ${throughput >= 500 ? 'OK' : 'UNDER TARGET'}; target p95 < 1 s: ${p95 < 1000 ? 'OK' : 'OVER TARGET'}`);
  });
} finally {
  child.send({ close: true });
}
process.exit(0);
