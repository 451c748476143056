// Every catalogue event that Herald emits today reaches a subscribed endpoint end to end:
// the change commits its outbox row, the drain fans it out, the local job runner sends it to a
// real HTTPS receiver. And nothing is lost when the process dies on the way.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { DOMAIN_EVENT_TYPES } from '@/server/events/catalogue';
import { drainOutbox } from '@/server/events/drain-outbox';
import { closeJobs, getJobs, startLocalRunner, type LocalRunner } from '@/server/jobs';
import { createCaller } from '@/server/root';
import { runnableJobs } from '@/server/runtime/job-handlers';
import { createSandboxConnection } from '@/server/testing/fixtures';
import { testDatabaseUrl } from '@/server/testing/per-file-database';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { createRequestContext } from '@/server/trpc/context';
import { fanOutToWebhooks } from './deliveries';
import { eventData } from './envelope';
import { ATTEMPT_CLAIM_MS } from './pause';
import { sweepDeliveries, SWEEP_GRACE_MS } from './sweep';
import { useWebhookHarness } from './testing/webhook-harness';
import type { ReceivedRequest } from './testing/webhook-receiver';

const api = usePublicApi();
const h = useWebhookHarness();
let runner: LocalRunner | undefined;

async function startRunner() {
  runner = await startLocalRunner({ connectionString: testDatabaseUrl(), definitions: runnableJobs, concurrency: 8, pollIntervalMs: 100 });
}
async function stopRunner() {
  await runner?.stop();
  runner = undefined;
}

beforeAll(async () => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
  await startRunner();
});
afterAll(async () => {
  await stopRunner();
  await closeJobs();
});

const envelope = (r: ReceivedRequest) =>
  JSON.parse(r.body.toString('utf8')) as { version: string; event: string; timestamp: string; data: Record<string, unknown> };

/** A workspace with sandbox accounts and an endpoint subscribed to every event at `receiverPath`. */
async function subscribed(receiverPath: string, opts: { requireApproval?: boolean } = {}) {
  const w = await publishingWorkspace(opts);
  const res = await api('POST', '/webhooks', { key: w.secret, body: { name: 'all', url: h.receiver.url(receiverPath), events: [...DOMAIN_EVENT_TYPES] } });
  expect(res.status).toBe(201);
  return { ...w, endpointId: res.body.data.id as string, signingSecret: res.body.data.secret as string };
}

function verified(requests: ReceivedRequest[], secret: string) {
  for (const r of requests) expect(r.headers['x-service-signature']).toBe(createHmac('sha256', secret).update(r.body).digest('hex'));
  return requests.map(envelope);
}

describe('events reach webhooks end to end', () => {
  it('post.scheduled on create and on reschedule', async () => {
    const w = await subscribed('/scheduled');
    const at = inMinutes(30);
    const created = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'later', connectionIds: [w.ok.linkedin.id, w.ok.facebook.id], scheduledAt: at },
    });
    const postId = created.body.data.id;
    const [first] = verified(await h.receiver.waitFor(1, '/scheduled'), w.signingSecret);
    expect(first).toMatchObject({ version: '1', event: 'post.scheduled', data: { postId, scheduledAt: at, platforms: ['linkedin', 'facebook'] } });
    expect(Object.keys(first!.data)).toEqual(['postId', 'scheduledAt', 'platforms']);

    const later = inMinutes(90);
    await api('PATCH', `/posts/${postId}`, { key: w.secret, body: { scheduledAt: later } });
    const [, second] = verified(await h.receiver.waitFor(2, '/scheduled'), w.signingSecret);
    expect(second).toMatchObject({ event: 'post.scheduled', data: { postId, scheduledAt: later } });
    const [request] = h.receiver.requests('/scheduled');
    expect(request!.headers['x-service-event']).toBe('post.scheduled');
  });

  it('post.approval_required, then post.approved when a member approves in the app', async () => {
    const w = await subscribed('/approval', { requireApproval: true });
    const created = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'review me', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) },
    });
    const postId = created.body.data.id;
    const events = verified(await h.receiver.waitFor(2, '/approval'), w.signingSecret);
    expect(events.map((e) => e.event).sort()).toEqual(['post.approval_required', 'post.scheduled']);
    expect(events.find((e) => e.event === 'post.approval_required')!.data).toEqual({ postId });

    const user = await db.user.create({ data: { email: `reviewer-${w.workspace.id}@example.com`, name: 'Reviewer' } });
    await db.membership.create({ data: { userId: user.id, workspaceId: w.workspace.id, role: 'owner' } });
    const staff = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id }));
    await staff.posts.approve({ id: postId });
    const approved = verified(await h.receiver.waitFor(3, '/approval'), w.signingSecret)[2]!;
    expect(approved).toMatchObject({ event: 'post.approved', data: { postId, approvedBy: user.id } });
  });

  it('post.published and post.failed, one per target', async () => {
    const w = await subscribed('/outcomes');
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'now', connectionIds: [w.ok.linkedin.id, w.ok.twitter.id, w.rejects.id] } });
    const published = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    const targets = published.body.data.targets as {
      id: string;
      connectionId: string;
      postedId: string;
      permalink: string;
      publishedAt: string;
      error: string;
    }[];
    const events = verified(await h.receiver.waitFor(3, '/outcomes'), w.signingSecret);
    const ok = events.filter((e) => e.event === 'post.published');
    const failed = events.filter((e) => e.event === 'post.failed');
    expect(ok).toHaveLength(2);
    expect(failed).toHaveLength(1);
    for (const e of ok) {
      const t = targets.find((x) => x.id === e.data.targetId)!;
      expect(e.data).toEqual({
        postId: created.body.data.id,
        targetId: t.id,
        platform: expect.any(String),
        connectionId: t.connectionId,
        postedId: t.postedId,
        permalink: t.permalink,
        publishedAt: t.publishedAt,
        confirmedAt: null,
      });
    }
    const rejected = targets.find((t) => t.connectionId === w.rejects.id)!;
    expect(failed[0]!.data).toEqual({
      postId: created.body.data.id,
      targetId: rejected.id,
      platform: 'linkedin',
      error: { code: 'PLATFORM_ERROR', message: rejected.error },
      failedAt: expect.any(String),
    });
  });

  it('connection.error when a live connection’s token stops working', async () => {
    const w = await subscribed('/connection');
    const lapsing = await createSandboxConnection(w.workspace.id, { platform: 'twitter' });
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [lapsing.id] } });
    await db.connection.update({ where: { id: lapsing.id }, data: { sandboxBehavior: 'expired' } });
    await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    const events = verified(await h.receiver.waitFor(2, '/connection'), w.signingSecret);
    const error = events.find((e) => e.event === 'connection.error')!;
    expect(error.data).toEqual({ connectionId: lapsing.id, platform: 'twitter', reason: expect.stringContaining('Session has expired') });
    expect(events.find((e) => e.event === 'post.failed')!.data).toMatchObject({ error: { code: 'CONNECTION_EXPIRED' } });
  });

  it('only to subscribed, active endpoints of the same workspace', async () => {
    const w = await subscribed('/mine');
    const other = await subscribed('/theirs');
    const narrow = await api('POST', '/webhooks', { key: w.secret, body: { name: 'narrow', url: h.receiver.url('/narrow'), events: ['connection.error'] } });
    expect(narrow.status).toBe(201);
    await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) } });
    await h.receiver.waitFor(1, '/mine');
    await api('POST', `/webhooks/${narrow.body.data.id}/test`, { key: w.secret });
    await h.receiver.waitFor(1, '/narrow'); // the ping, queued after the event
    expect(h.receiver.requests('/narrow').map((r) => envelope(r).event)).toEqual(['ping']);
    expect(h.receiver.requests('/theirs')).toHaveLength(0);
    expect(other.endpointId).toBeDefined();
  });
});

describe('event data in the envelope', () => {
  it('carries the catalogue fields, a missing reading as null (never 0 or "")', () => {
    expect(eventData('post.published', { postId: 'p', targetId: 't', platform: 'x', connectionId: 'c', postedId: '1', publishedAt: 'now', extra: 1 })).toEqual({
      postId: 'p',
      targetId: 't',
      platform: 'x',
      connectionId: 'c',
      postedId: '1',
      permalink: null,
      publishedAt: 'now',
      confirmedAt: null,
    });
    expect(eventData('connection.error', { connectionId: 'c', platform: 'x', reason: '' })).toEqual({ connectionId: 'c', platform: 'x', reason: null });
    expect(eventData('workflow.run.completed', { workflowId: 'w', runId: 'r', summary: 0 })).toEqual({ workflowId: 'w', runId: 'r', summary: 0 });
  });
});

describe('nothing is lost', () => {
  it('a crash after the drain committed, before any job was queued: the sweep sends it, same delivery', async () => {
    const w = await subscribed('/after-commit');
    // The change commits its event; the process dies before it could drain (no kick).
    await db.$transaction(async (tx) => {
      const { recordEvent } = await import('@/server/events/record-event');
      await recordEvent(tx, { workspaceId: w.workspace.id, type: 'post.approval_required', data: { postId: '4f4c0c8e-5a8e-4b9c-9c63-0c0c0c0c0c0c' } });
    });
    // The drain after restart commits the delivery rows, and dies before queueing their jobs.
    await drainOutbox({ consumers: [(events, ctx) => fanOutToWebhooks(events, { ...ctx, afterCommit: () => undefined })] });
    const [pending] = await db.webhookDelivery.findMany({ where: { endpointId: w.endpointId } });
    expect(pending).toMatchObject({ status: 'pending', attempt: 0 });

    h.clock.advance(SWEEP_GRACE_MS);
    expect(await sweepDeliveries()).toBe(1);
    const [request] = await h.receiver.waitFor(1, '/after-commit');
    expect(request!.headers['x-service-delivery']).toBe(pending!.id);
    await expect.poll(async () => (await db.webhookDelivery.findUniqueOrThrow({ where: { id: pending!.id } })).status, { timeout: 10_000 }).toBe('delivered');
  });

  it('an event committed while no drain ran goes out with the next (cron) drain', async () => {
    const w = await subscribed('/cron');
    await stopRunner();
    try {
      await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) } });
    } finally {
      await startRunner();
    }
    await getJobs().enqueue('outbox.drain', {}); // what the every-minute cron does
    const [request] = await h.receiver.waitFor(1, '/cron');
    expect(envelope(request!).event).toBe('post.scheduled');
  });

  it('kill -9 mid-attempt: after restart the same delivery is sent again, with its id and schedule', async () => {
    const w = await subscribed('/crash');
    h.receiver.reply('/crash', 'hang');
    await stopRunner(); // the other process takes the job
    h.clock.offsetMs = 0; // the other process runs on the wall clock
    const ping = await api('POST', `/webhooks/${w.endpointId}/test`, { key: w.secret });
    const deliveryId = ping.body.data.id as string;

    const script = `
      const { startLocalRunner } = await import(${JSON.stringify(new URL('../jobs/index.ts', import.meta.url).href)});
      const { runnableJobs } = await import(${JSON.stringify(new URL('../runtime/job-handlers.ts', import.meta.url).href)});
      await startLocalRunner({ connectionString: process.env.DATABASE_URL, definitions: runnableJobs, concurrency: 2, pollIntervalMs: 100 });
      process.stdout.write('ready');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, DATABASE_URL: testDatabaseUrl(), NODE_EXTRA_CA_CERTS: h.receiver.certPath, OUTBOUND_ALLOW_HOSTS: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await h.receiver.waitFor(1, '/crash', 20_000); // the other process is mid-attempt
      expect(child.kill('SIGKILL')).toBe(true);
      await new Promise((resolve) => child.once('exit', resolve));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    const cut = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(cut).toMatchObject({ status: 'pending', attempt: 0 });
    expect(cut.attemptStartedAt).not.toBeNull();

    // Restart: once the dead attempt's claim is old, the sweep queues the delivery again.
    h.receiver.reply('/crash', { status: 200 });
    await startRunner();
    expect(await sweepDeliveries()).toBe(0); // the claim is still fresh
    h.clock.advance(ATTEMPT_CLAIM_MS + SWEEP_GRACE_MS);
    expect(await sweepDeliveries()).toBe(1);
    await expect.poll(async () => (await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status, { timeout: 10_000 }).toBe('delivered');
    const requests = h.receiver.requests('/crash');
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.headers['x-service-delivery'])).toEqual([deliveryId, deliveryId]);
    expect(requests[1]!.body.equals(requests[0]!.body)).toBe(true);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ attempt: 1, statusCode: 200 });
  }, 60_000);

  it('a crash between retries keeps the delivery id and its schedule', async () => {
    const w = await subscribed('/between');
    h.receiver.reply('/between', { status: 500 });
    await stopRunner();
    const { attemptDelivery } = await import('./attempt');
    const deliveryId = (await api('POST', `/webhooks/${w.endpointId}/test`, { key: w.secret })).body.data.id as string;
    expect(await attemptDelivery(deliveryId)).toBe('retrying');
    const scheduled = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    // The process dies and its queue entry is gone with it (the worst case).
    await db.$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key = ${`webhooks.delivery:${deliveryId}`}`;
    h.receiver.reply('/between', { status: 200 });
    await startRunner();

    h.clock.advance(5_000); // before the +10 s: nothing is due, nothing is sent
    expect(await sweepDeliveries()).toBe(0);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toEqual(scheduled);
    h.clock.advance(5_000 + SWEEP_GRACE_MS);
    expect(await sweepDeliveries()).toBe(1);
    await expect.poll(async () => (await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status, { timeout: 10_000 }).toBe('delivered');
    const requests = h.receiver.requests('/between');
    expect(requests.map((r) => r.headers['x-service-delivery'])).toEqual([deliveryId, deliveryId]);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ attempt: 2 });
  });
});
