// Guards on what a webhook costs and what wakes it, so the speed promise of docs/webhooks.md
// ("How fast") cannot slip away unnoticed. Nothing here measures time: the runner polls once
// an hour and has no cron, so a delivery that arrives was started by the wake-ups alone, and
// the database statements each step sends are counted on the driver (every pool in the
// process, Herald's and the job queue's, runs its statements through pg.Client#query).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { statementShape, statementsOf } from '@/server/testing/statements';
import { drainOutbox } from '@/server/events/drain-outbox';
import { kickOutboxDrain } from '@/server/events/kick-outbox';
import { recordEvent } from '@/server/events/record-event';
import { startLocalRunner, type LocalRunner } from '@/server/jobs';
import { outboxConsumers, runnableJobs } from '@/server/runtime/job-handlers';
import { eventually } from '@/server/testing/eventually';
import { createWorkspace } from '@/server/testing/fixtures';
import { attemptDeliveries, attemptDelivery } from './attempt';
import { createEndpoint } from './endpoints';
import { useWebhookHarness } from './testing/webhook-harness';

const h = useWebhookHarness();

/** A statement's shape: parameter lists and VALUES rows of any length read the same. */
const shape = statementShape;

async function subscribedWorkspace(endpoints: number, path: string) {
  const workspace = await createWorkspace();
  const ids: string[] = [];
  for (let i = 0; i < endpoints; i++) {
    const e = await createEndpoint(workspace.id, { name: `hook ${i}`, url: h.receiver.url(`${path}/${i}`), events: ['post.approval_required'] });
    ids.push(e.id);
  }
  return { workspaceId: workspace.id, endpointIds: ids };
}

async function commitEvents(workspaceId: string, count: number): Promise<void> {
  await db.$transaction(async (tx) => {
    for (let i = 0; i < count; i++) await recordEvent(tx, { workspaceId, type: 'post.approval_required', data: { postId: randomUUID() } });
  });
}

const pendingDeliveryIds = async (workspaceId: string) =>
  (await db.webhookDelivery.findMany({ where: { endpoint: { workspaceId }, status: 'pending' }, orderBy: { id: 'asc' }, select: { id: true } })).map(
    (d) => d.id,
  );

describe('what starts a delivery', () => {
  let runner: LocalRunner;
  beforeAll(async () => {
    // No cron and an hourly poll: only the wake-ups (NOTIFY on enqueue) can start the work.
    const withoutSchedules = runnableJobs.map((definition) => ({ ...definition, cron: undefined }));
    runner = await startLocalRunner({ connectionString: process.env.DATABASE_URL!, definitions: withoutSchedules, concurrency: 4, pollIntervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await runner.stop();
  });

  it('a committed event reaches its endpoints from the wake-ups alone: kick → drain job → delivery job', async () => {
    const w = await subscribedWorkspace(2, '/wake');
    await commitEvents(w.workspaceId, 1);
    await kickOutboxDrain();
    const requests = await h.receiver.waitFor(2, undefined, 15_000);
    expect(requests.map((r) => r.path).sort()).toEqual(['/wake/0', '/wake/1']);
    // Recorded once the receiver's answer is back.
    await eventually(async () => expect(await pendingDeliveryIds(w.workspaceId)).toEqual([]));
  });

  it('so does a burst: every event of it, each to every endpoint', async () => {
    const before = h.receiver.requests().length;
    const w = await subscribedWorkspace(3, '/burst');
    for (let i = 0; i < 10; i++) {
      await commitEvents(w.workspaceId, 5);
      void kickOutboxDrain();
    }
    await h.receiver.waitFor(before + 150, undefined, 30_000);
    expect(
      new Set(
        h.receiver
          .requests()
          .slice(before)
          .map((r) => r.headers['x-service-delivery']),
      ).size,
    ).toBe(150);
  });
});

describe('what a delivery costs', () => {
  afterEach(async () => {
    // Nothing queued here is run; the next test counts from an empty queue.
    await db.$executeRawUnsafe('DELETE FROM graphile_worker._private_jobs');
  });

  it('a drain batch costs the same statements for 2 events as for 60: the fan-out is one INSERT … SELECT', async () => {
    const a = await subscribedWorkspace(5, '/cost-a');
    const b = await subscribedWorkspace(5, '/cost-b');
    // Warm-up: the job queue's pool and schema check, Prisma's first connection.
    await commitEvents(a.workspaceId, 1);
    await drainOutbox({ consumers: outboxConsumers });

    await commitEvents(a.workspaceId, 2);
    const small = await statementsOf(() => drainOutbox({ consumers: outboxConsumers }));
    await commitEvents(a.workspaceId, 30);
    await commitEvents(b.workspaceId, 30);
    const large = await statementsOf(() => drainOutbox({ consumers: outboxConsumers }));

    expect(large.map(shape)).toEqual(small.map(shape));
    // Claim, fan out, notices (posts read, workspaces read, insert), mark dispatched; the
    // delivery jobs queued in one statement; and the claim that finds the outbox empty.
    const inserts = large.filter((s) => s.startsWith('INSERT INTO "WebhookDelivery"'));
    expect(inserts).toHaveLength(1);
    expect(large.filter((s) => s.includes('add_jobs'))).toHaveLength(1);
    expect(large.length).toBeLessThanOrEqual(16);
    expect(await db.webhookDelivery.count({ where: { endpoint: { workspaceId: b.workspaceId } } })).toBe(150);
  });

  it('one delivery costs two statements of its own: the claim and the record', async () => {
    const w = await subscribedWorkspace(1, '/one');
    await commitEvents(w.workspaceId, 1);
    await drainOutbox({ consumers: outboxConsumers });
    const [id] = await pendingDeliveryIds(w.workspaceId);
    await attemptDelivery(randomUUID()); // warm-up: nothing to claim
    let outcome: string | undefined;
    const statements = await statementsOf(async () => (outcome = await attemptDelivery(id!)));
    expect(outcome).toBe('delivered');
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/^UPDATE "WebhookDelivery" d SET "attemptStartedAt"/);
    expect(statements[1]).toMatch(/"status" = 'delivered'/);
  });

  it("an event's deliveries to five endpoints are claimed by one statement and recorded in at most one each", async () => {
    const w = await subscribedWorkspace(5, '/five');
    await commitEvents(w.workspaceId, 1);
    await drainOutbox({ consumers: outboxConsumers });
    const ids = await pendingDeliveryIds(w.workspaceId);
    expect(ids).toHaveLength(5);
    let outcomes: string[] = [];
    const statements = await statementsOf(async () => (outcomes = await attemptDeliveries(ids)));
    expect(outcomes).toEqual(Array(5).fill('delivered'));
    expect(statements.filter((s) => s.includes('SET "attemptStartedAt"'))).toHaveLength(1);
    const records = statements.filter((s) => s.includes(`"status" = 'delivered'`));
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(records.length).toBeLessThanOrEqual(5);
    expect(statements).toHaveLength(1 + records.length);
  });

  it('kicks that arrive together queue at most two drains, the first at once', async () => {
    await kickOutboxDrain(); // warm-up
    const statements = await statementsOf(() => Promise.all(Array.from({ length: 50 }, () => kickOutboxDrain())));
    const enqueues = statements.filter((s) => s.includes('add_job'));
    expect(enqueues.length).toBeGreaterThanOrEqual(1);
    expect(enqueues.length).toBeLessThanOrEqual(2);
  });
});
