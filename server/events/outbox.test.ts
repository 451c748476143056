// The outbox against a real PostgreSQL database: transactional writes, exactly-once draining
// under concurrency, failure bookkeeping, and the real job wiring.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { closeJobs, startLocalRunner } from '@/server/jobs';
import type { OutboxConsumer } from './consumers';
import { drainOutbox } from './drain-outbox';
import { kickOutboxDrain } from './kick-outbox';
import { recordEvent } from './record-event';
import { runnableJobs } from '@/server/runtime/job-handlers';

const workspaceId = randomUUID();

async function recordCommitted(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = await db.$transaction((tx) => recordEvent(tx, { workspaceId, type: 'post.approval_required', data: { postId: `post-${i}` } }));
    ids.push(id);
  }
  return ids;
}

beforeEach(async () => {
  await db.outboxEvent.deleteMany();
});

afterAll(async () => {
  await closeJobs();
  await db.$disconnect();
});

describe('recordEvent', () => {
  it('writes nothing when the transaction rolls back', async () => {
    await expect(
      db.$transaction(async (tx) => {
        await recordEvent(tx, { workspaceId, type: 'post.approved', data: { postId: 'p1', approvedBy: 'u1' } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await db.outboxEvent.count()).toBe(0);
  });

  it('writes the event when the transaction commits', async () => {
    const [id] = await recordCommitted(1);
    const row = await db.outboxEvent.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      workspaceId,
      type: 'post.approval_required',
      data: { postId: 'post-0' },
      dispatchedAt: null,
      attempts: 0,
    });
  });
});

describe('drainOutbox', () => {
  it('hands each committed event to the consumers exactly once, even with two drainers at once', async () => {
    const ids = await recordCommitted(40);
    const seen: string[] = [];
    const slowConsumer: OutboxConsumer = async (events) => {
      for (const event of events) seen.push(event.id);
      await new Promise((r) => setTimeout(r, 5)); // widen the window for overlap
    };

    // Batches of 5, so each drainer has work left to claim while the other holds a batch.
    const [a, b] = await Promise.all([drainOutbox({ consumers: [slowConsumer], batchSize: 5 }), drainOutbox({ consumers: [slowConsumer], batchSize: 5 })]);

    expect(a.dispatched + b.dispatched).toBe(40);
    expect(a.dispatched).toBeGreaterThan(0);
    expect(b.dispatched).toBeGreaterThan(0);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(await db.outboxEvent.count({ where: { dispatchedAt: null } })).toBe(0);

    // A later drain finds nothing left.
    expect(await drainOutbox({ consumers: [slowConsumer] })).toEqual({ dispatched: 0, failed: 0 });
    expect(seen).toHaveLength(40);
  });

  it('hands events over oldest first', async () => {
    await recordCommitted(5);
    // Two commits in one millisecond are equally old (createdAt has millisecond precision):
    // the order is creation time, then id.
    const oldestFirst = (await db.outboxEvent.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true } })).map((e) => e.id);
    const seen: string[] = [];
    await drainOutbox({ consumers: [async (events) => void seen.push(...events.map((e) => e.id))] });
    expect(seen).toEqual(oldestFirst);
  });

  it('keeps a failed event for a later drain, rolls back its writes, and does not block the others', async () => {
    const [failing, ok] = await recordCommitted(2);
    const markerWorkspace = randomUUID();
    let broken = true;
    const consumer: OutboxConsumer = async (events, { tx }) => {
      // A write made by the consumer must share the fate of the dispatch: one per event.
      for (const _ of events) {
        await tx.outboxEvent.create({ data: { workspaceId: markerWorkspace, type: 'marker', data: {}, dispatchedAt: new Date() } });
      }
      if (broken && events.some((e) => e.id === failing)) throw new Error('receiver fan-out failed');
    };

    // The batch of two fails as a whole; handed over one by one, only the failing one stays.
    expect(await drainOutbox({ consumers: [consumer] })).toEqual({ dispatched: 1, failed: 1 });
    const failedRow = await db.outboxEvent.findUniqueOrThrow({ where: { id: failing } });
    expect(failedRow).toMatchObject({ dispatchedAt: null, attempts: 1 });
    expect(failedRow.lastError).toContain('receiver fan-out failed');
    expect((await db.outboxEvent.findUniqueOrThrow({ where: { id: ok } })).dispatchedAt).not.toBeNull();
    expect(await db.outboxEvent.count({ where: { workspaceId: markerWorkspace } })).toBe(1);

    broken = false;
    expect(await drainOutbox({ consumers: [consumer] })).toEqual({ dispatched: 1, failed: 0 });
    const retried = await db.outboxEvent.findUniqueOrThrow({ where: { id: failing } });
    expect(retried).toMatchObject({ attempts: 2, lastError: null });
    expect(retried.dispatchedAt).not.toBeNull();
  });

  it('isolates an event whose consumer broke the transaction with a failing statement', async () => {
    const [broken, ...fine] = await recordCommitted(4);
    const consumer: OutboxConsumer = async (events, { tx }) => {
      for (const event of events) {
        await tx.outboxEvent.create({ data: { workspaceId: randomUUID(), type: 'marker', data: { for: event.id }, dispatchedAt: new Date() } });
      }
      if (events.some((e) => e.id === broken)) await tx.$executeRawUnsafe('SELECT 1/0');
    };
    expect(await drainOutbox({ consumers: [consumer] })).toEqual({ dispatched: 3, failed: 1 });
    expect((await db.outboxEvent.findUniqueOrThrow({ where: { id: broken } })).lastError).toMatch(/division by zero/);
    const markers = await db.outboxEvent.findMany({ where: { type: 'marker' } });
    expect(markers.map((m) => (m.data as { for: string }).for).sort()).toEqual([...fine].sort());
  });

  it('gives up on an event after maxAttempts', async () => {
    const [id] = await recordCommitted(1);
    const broken: OutboxConsumer = async () => {
      throw new Error('always fails');
    };
    for (let i = 0; i < 3; i += 1) await drainOutbox({ consumers: [broken], maxAttempts: 2 });
    expect(await db.outboxEvent.findUniqueOrThrow({ where: { id } })).toMatchObject({ attempts: 2, dispatchedAt: null });
  });

  it('runs after-commit effects only once the dispatch committed', async () => {
    const [first, second] = await recordCommitted(2);
    const effects: string[] = [];
    const consumer: OutboxConsumer = async (events, { afterCommit }) => {
      for (const event of events) afterCommit(() => void effects.push(event.id));
      if (events.some((e) => e.id === first)) throw new Error('first one fails');
    };
    const result = await drainOutbox({ consumers: [consumer] });
    expect(result).toEqual({ dispatched: 1, failed: 1 });
    // Neither the failed batch's effects nor the failed event's ran.
    expect(effects).toEqual([second]);
  });
});

describe('outbox.drain job', () => {
  it('drains right after a commit when kicked, through the real job registry and local runner', async () => {
    const runner = await startLocalRunner({ connectionString: process.env.DATABASE_URL!, definitions: runnableJobs, concurrency: 2, pollIntervalMs: 200 });
    try {
      const [id] = await recordCommitted(1);
      await kickOutboxDrain();
      const deadline = Date.now() + 10_000;
      let row = await db.outboxEvent.findUniqueOrThrow({ where: { id } });
      while (!row.dispatchedAt && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        row = await db.outboxEvent.findUniqueOrThrow({ where: { id } });
      }
      expect(row.dispatchedAt).not.toBeNull();
    } finally {
      await runner.stop();
    }
  });

  it('drains a backlog larger than one run without waiting for the next cron minute', async () => {
    // 1,200 events committed at once (a burst), more than two runs' worth (500 each).
    await db.outboxEvent.createMany({
      data: Array.from({ length: 1200 }, (_, i) => ({ workspaceId, type: 'post.approval_required', data: { postId: `burst-${i}` } })),
    });
    const runner = await startLocalRunner({ connectionString: process.env.DATABASE_URL!, definitions: runnableJobs, concurrency: 2, pollIntervalMs: 200 });
    try {
      await kickOutboxDrain();
      // One kick, then each full run queues the next; the cron (every minute) is not needed.
      const deadline = Date.now() + 30_000;
      let left = 1200;
      while (left > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        left = await db.outboxEvent.count({ where: { dispatchedAt: null } });
      }
      expect(left).toBe(0);
    } finally {
      await runner.stop();
    }
  });
});
