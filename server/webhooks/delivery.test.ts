// Signed delivery against a real HTTPS receiver on 127.0.0.1: the bytes and headers, the
// retry schedule (moved through with a test clock, checked on the recorded schedule), what
// counts as a failure, the guard at send time, auto-pause, rotation, redelivery, recovery.
import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { drainOutbox } from '@/server/events/drain-outbox';
import { recordEvent } from '@/server/events/record-event';
import { createOutboundClient, type OutboundRequestInit } from '@/server/outbound';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { testDatabaseUrl } from '@/server/testing/per-file-database';
import { usePublicApi } from '@/server/testing/public-api';
import { attemptDelivery, RESPONSE_READ_CAP } from './attempt';
import { fanOutToWebhooks, RECOVER_BATCH } from './deliveries';
import { deliveryJobKey } from './delivery-jobs';
import { PAUSED_ERROR } from './pause';
import { DELIVERY_RETENTION_DAYS, KEEP_PER_ENDPOINT, pruneDeliveries } from './sweep';
import { fakeDns, TEST_ALLOW_HOSTS, useWebhookHarness } from './testing/webhook-harness';

const api = usePublicApi();
const h = useWebhookHarness();

afterEach(() => {
  h.install();
  vi.stubEnv('OUTBOUND_ALLOW_HOSTS', TEST_ALLOW_HOSTS);
});

const hmac = (secret: string, body: Buffer | string) => createHmac('sha256', secret).update(body).digest('hex');
const row = (id: string) => db.webhookDelivery.findUniqueOrThrow({ where: { id } });
const endpointRow = (id: string) => db.webhookEndpoint.findUniqueOrThrow({ where: { id } });

async function jobRunAt(deliveryId: string): Promise<Date | undefined> {
  const jobs = await db.$queryRaw<{ run_at: Date }[]>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${deliveryJobKey(deliveryId)} AND locked_at IS NULL`;
  return jobs[0]?.run_at;
}

async function endpoint(receiverPath: string, events: string[] = ['post.published', 'post.failed']) {
  const { workspace, secret: key } = await createWorkspaceWithKey();
  const res = await api('POST', '/webhooks', { key, body: { name: `hook ${receiverPath}`, url: h.receiver.url(receiverPath), events } });
  expect(res.status).toBe(201);
  return { workspaceId: workspace.id, key, id: res.body.data.id as string, secret: res.body.data.secret as string };
}

async function ping(e: { id: string; key: string }): Promise<string> {
  const res = await api('POST', `/webhooks/${e.id}/test`, { key: e.key });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('a delivery', () => {
  it('sends the stored bytes, signed, with every header', async () => {
    const e = await endpoint('/signed');
    const id = await ping(e);
    expect(await attemptDelivery(id)).toBe('delivered');

    const [request] = h.receiver.requests('/signed');
    const stored = await row(id);
    expect(request!.method).toBe('POST');
    expect(request!.body.toString('utf8')).toBe(stored.payload);
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'service-webhooks/1',
      'x-service-event': 'ping',
      'x-service-delivery': id,
      'x-service-signature': hmac(e.secret, request!.body),
    });
    expect(request!.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    const envelope = JSON.parse(request!.body.toString('utf8'));
    expect(Object.keys(envelope)).toEqual(['version', 'event', 'timestamp', 'data']);
    expect(envelope).toMatchObject({ version: '1', event: 'ping', data: { endpointId: e.id, message: expect.any(String) } });
    expect(new Date(envelope.timestamp).toISOString()).toBe(envelope.timestamp);

    expect(stored).toMatchObject({ status: 'delivered', attempt: 1, statusCode: 200, error: null, nextAttemptAt: null });
    expect(stored.deliveredAt).not.toBeNull();
    const ep = await endpointRow(e.id);
    expect(ep).toMatchObject({ consecutiveFailures: 0, lastDeliveryAt: stored.deliveredAt });
    const listed = (await api('GET', `/webhooks/${e.id}/deliveries`, { key: e.key })).body.data[0];
    expect(listed).toMatchObject({
      id,
      attempt: 1,
      statusCode: 200,
      error: null,
      nextAttemptAt: null,
      deliveredAt: stored.deliveredAt!.toISOString(),
      payload: envelope,
    });

    // A second run of the same job sends nothing.
    expect(await attemptDelivery(id)).toBe('skipped');
    expect(h.receiver.requests('/signed')).toHaveLength(1);
  });

  it('retries 10 s after the first failure and 1 min after the second, three attempts in all, same id', async () => {
    h.receiver.reply('/retry', { status: 500, body: 'database is down' });
    const e = await endpoint('/retry');
    const id = await ping(e);
    const created = await row(id);
    expect(created).toMatchObject({ attempt: 0, status: 'pending' });
    expect(created.nextAttemptAt).not.toBeNull();

    expect(await attemptDelivery(id)).toBe('retrying');
    const first = await row(id);
    expect(first).toMatchObject({ attempt: 1, statusCode: 500, error: 'The receiver answered 500: database is down', status: 'pending', deliveredAt: null });
    expect(first.nextAttemptAt!.getTime() - first.lastAttemptAt!.getTime()).toBe(10_000);
    expect(await jobRunAt(id)).toEqual(first.nextAttemptAt);

    // Not due yet: nothing is sent, the job puts itself back at the due time.
    h.clock.advance(5_000);
    expect(await attemptDelivery(id)).toBe('not_due');
    expect(h.receiver.requests('/retry')).toHaveLength(1);
    expect(await jobRunAt(id)).toEqual(first.nextAttemptAt);

    h.clock.advance(5_000);
    expect(await attemptDelivery(id)).toBe('retrying');
    const second = await row(id);
    expect(second).toMatchObject({ attempt: 2, statusCode: 500 });
    expect(second.nextAttemptAt!.getTime() - second.lastAttemptAt!.getTime()).toBe(60_000);
    expect(await jobRunAt(id)).toEqual(second.nextAttemptAt);

    h.clock.advance(60_000);
    expect(await attemptDelivery(id)).toBe('failed');
    const third = await row(id);
    expect(third).toMatchObject({ attempt: 3, statusCode: 500, status: 'failed', nextAttemptAt: null, deliveredAt: null });
    expect(third.failedAt).not.toBeNull();

    h.clock.advance(3_600_000);
    expect(await attemptDelivery(id)).toBe('skipped');
    const requests = h.receiver.requests('/retry');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([id]));
    expect(new Set(requests.map((r) => r.body.toString()))).toEqual(new Set([third.payload]));
    expect((await endpointRow(e.id)).consecutiveFailures).toBe(3);
  });

  it('resets consecutiveFailures on a success', async () => {
    h.receiver.reply('/flaky', { status: 503 });
    const e = await endpoint('/flaky');
    const id = await ping(e);
    await attemptDelivery(id);
    expect((await endpointRow(e.id)).consecutiveFailures).toBe(1);
    h.receiver.reply('/flaky', { status: 202 });
    h.clock.advance(10_000);
    expect(await attemptDelivery(id)).toBe('delivered');
    expect(await row(id)).toMatchObject({ attempt: 2, statusCode: 202, error: null, nextAttemptAt: null });
    expect((await endpointRow(e.id)).consecutiveFailures).toBe(0);
  });

  it.each([
    [204, true],
    [299, true],
    [301, false],
    [302, false],
    [307, false],
    [400, false],
    [404, false],
    [410, false],
    [500, false],
    [503, false],
  ])('answers %i → success %s', async (status, ok) => {
    const p = `/status-${status}`;
    h.receiver.reply(p, { status, headers: status >= 300 && status < 400 ? { location: '/target' } : {} });
    const e = await endpoint(p);
    const id = await ping(e);
    expect(await attemptDelivery(id)).toBe(ok ? 'delivered' : 'retrying');
    expect((await row(id)).statusCode).toBe(status);
  });

  it('never follows a redirect', async () => {
    h.receiver.reply('/moved', { status: 302, headers: { location: h.receiver.url('/target') } });
    const e = await endpoint('/moved');
    const id = await ping(e);
    await attemptDelivery(id);
    expect(h.receiver.requests('/target')).toHaveLength(0);
    expect((await row(id)).error).toBe(`The receiver answered 302; redirects are not followed (Location: ${h.receiver.url('/target')})`);
  });

  it('gives the receiver 10 s, then records a failed attempt with no status', async () => {
    const seen: OutboundRequestInit[] = [];
    const spy = { check: h.client.check, stream: (url: string | URL, init?: OutboundRequestInit) => (seen.push(init!), h.client.stream(url, init)) };
    const e = await endpoint('/quick');
    h.install({ client: { ...h.client, ...spy } });
    await attemptDelivery(await ping(e));
    expect(seen[0]!.timeoutMs).toBe(10_000);

    // The same path with a short deadline, against a receiver that never answers.
    h.receiver.reply('/hang', 'hang');
    const slow = await endpoint('/hang');
    h.install({ timeoutMs: 300 });
    const id = await ping(slow);
    expect(await attemptDelivery(id)).toBe('retrying');
    expect(await row(id)).toMatchObject({ attempt: 1, statusCode: null, error: 'The receiver did not answer within 0.3 s' });
  });

  it('records a TLS failure (certificate not trusted) as a failed attempt', async () => {
    const e = await endpoint('/tls');
    const untrusting = createOutboundClient({ resolve: fakeDns(h.dns) });
    h.install({ client: untrusting });
    const id = await ping(e);
    expect(await attemptDelivery(id)).toBe('retrying');
    const failed = await row(id);
    expect(failed.statusCode).toBeNull();
    expect(failed.error).toMatch(/certificate/i);
    await untrusting.close();
  });

  it('reads at most a capped part of the response', async () => {
    h.receiver.reply('/big', { status: 200, body: 'x'.repeat(RESPONSE_READ_CAP * 4) });
    h.receiver.reply('/big-error', { status: 500, body: 'e'.repeat(RESPONSE_READ_CAP * 4) });
    const ok = await endpoint('/big');
    expect(await attemptDelivery(await ping(ok))).toBe('delivered');
    const bad = await endpoint('/big-error');
    const id = await ping(bad);
    await attemptDelivery(id);
    expect((await row(id)).error).toBe(`The receiver answered 500: ${'e'.repeat(200)}`);
  });
});

describe('the URL rules again at send time', () => {
  it('never reaches a private address a name resolves to after registration (DNS pinned at connect)', async () => {
    vi.stubEnv('OUTBOUND_ALLOW_HOSTS', ''); // nothing exempt
    h.dns['rebind.test'] = ['93.184.216.34'];
    const { secret: key } = await createWorkspaceWithKey();
    const created = await api('POST', '/webhooks', {
      key,
      body: { name: 'rebind', url: `https://rebind.test:${h.receiver.port}/rebind`, events: ['post.failed'] },
    });
    expect(created.status).toBe(201);

    h.dns['rebind.test'] = ['127.0.0.1'];
    const before = h.receiver.connections();
    const id = await ping({ id: created.body.data.id, key });
    expect(await attemptDelivery(id)).toBe('retrying');
    expect(h.receiver.connections()).toBe(before);
    expect(h.receiver.requests('/rebind')).toHaveLength(0);
    expect(await row(id)).toMatchObject({
      attempt: 1,
      statusCode: null,
      error: 'Refused before sending: rebind.test resolves to 127.0.0.1, which is private or reserved, not a public internet address.',
    });
  });

  it('refuses a stored address that the rules no longer allow', async () => {
    const e = await endpoint('/literal');
    vi.stubEnv('OUTBOUND_ALLOW_HOSTS', '');
    const before = h.receiver.connections();
    const id = await ping(e);
    await attemptDelivery(id);
    expect(h.receiver.connections()).toBe(before);
    expect((await row(id)).error).toBe('Refused before sending: The address 127.0.0.1 is private or reserved, not a public internet address.');
  });
});

describe('auto-pause', () => {
  it('pauses at exactly 20 consecutive failures, fails pending retries, notifies the workspace', async () => {
    h.receiver.reply('/down', { status: 500 });
    const e = await endpoint('/down');
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await ping(e));

    for (let i = 0; i < 19; i++) expect(await attemptDelivery(ids[i]!)).toBe('retrying');
    expect(await endpointRow(e.id)).toMatchObject({ active: true, consecutiveFailures: 19 });
    expect(await db.notification.count({ where: { workspaceId: e.workspaceId } })).toBe(0);

    expect(await attemptDelivery(ids[19]!)).toBe('failed');
    expect(await endpointRow(e.id)).toMatchObject({ active: false, consecutiveFailures: 20 });
    // The 20th keeps its own outcome; every other pending delivery is failed as paused.
    expect(await row(ids[19]!)).toMatchObject({ status: 'failed', attempt: 1, statusCode: 500, error: 'The receiver answered 500', nextAttemptAt: null });
    for (const id of [...ids.slice(0, 19), ...ids.slice(20)]) {
      expect(await row(id)).toMatchObject({ status: 'failed', error: PAUSED_ERROR, nextAttemptAt: null });
      expect(await jobRunAt(id)).toBeUndefined();
    }
    const notices = await db.notification.findMany({ where: { workspaceId: e.workspaceId } });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'webhook.paused', data: { endpointId: e.id } });
    expect((await api('GET', `/webhooks/${e.id}`, { key: e.key })).body.data).toMatchObject({ active: false, consecutiveFailures: 20 });

    // Nothing more is sent or queued for it.
    h.clock.advance(120_000);
    for (const id of ids) expect(await attemptDelivery(id)).toBe('skipped');
    expect(h.receiver.requests('/down')).toHaveLength(20);
    const event = await db.$transaction((tx) =>
      recordEvent(tx, {
        workspaceId: e.workspaceId,
        type: 'post.failed',
        data: {
          postId: randomUUID(),
          targetId: randomUUID(),
          platform: 'linkedin',
          error: { code: 'PLATFORM_ERROR', message: 'x' },
          failedAt: new Date().toISOString(),
        },
      }),
    );
    await drainOutbox({ consumers: [fanOutToWebhooks] });
    expect(await db.webhookDelivery.count({ where: { eventId: event } })).toBe(0);
    for (const [p, body] of [
      [`/webhooks/${e.id}/test`],
      [`/webhooks/${e.id}/deliveries/${ids[0]}/redeliver`],
      [`/webhooks/${e.id}/recover`, { since: new Date(0).toISOString() }],
    ] as const) {
      const res = await api('POST', p, { key: e.key, body });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'id' });
    }

    // PATCH active true resumes and resets the counter.
    h.receiver.reply('/down', { status: 200 });
    const resumed = await api('PATCH', `/webhooks/${e.id}`, { key: e.key, body: { active: true } });
    expect(resumed.body.data).toMatchObject({ active: true, consecutiveFailures: 0 });
    expect(await attemptDelivery(await ping(e))).toBe('delivered');
  });

  it('pauses on PATCH active false the same way, without a notification', async () => {
    h.receiver.reply('/manual', { status: 500 });
    const e = await endpoint('/manual');
    const id = await ping(e);
    await attemptDelivery(id);
    const res = await api('PATCH', `/webhooks/${e.id}`, { key: e.key, body: { active: false } });
    expect(res.body.data).toMatchObject({ active: false, consecutiveFailures: 1 });
    expect(await row(id)).toMatchObject({ status: 'failed', error: PAUSED_ERROR, nextAttemptAt: null });
    expect(await db.notification.count({ where: { workspaceId: e.workspaceId } })).toBe(0);
    // Sending active true to an active endpoint changes nothing else.
    await api('PATCH', `/webhooks/${e.id}`, { key: e.key, body: { active: true } });
    expect((await endpointRow(e.id)).consecutiveFailures).toBe(0);
  });

  it('records a delivery whose endpoint paused before its attempt as paused, without sending', async () => {
    const e = await endpoint('/late');
    const id = await ping(e);
    await db.webhookEndpoint.update({ where: { id: e.id }, data: { active: false } });
    expect(await attemptDelivery(id)).toBe('failed');
    expect(await row(id)).toMatchObject({ status: 'failed', error: PAUSED_ERROR, attempt: 0 });
    expect(h.receiver.requests('/late')).toHaveLength(0);
  });
});

describe('rotation, redelivery, recovery', () => {
  it('signs a pending retry with the new secret only', async () => {
    h.receiver.reply('/rotate', { status: 500 });
    const e = await endpoint('/rotate');
    const id = await ping(e);
    await attemptDelivery(id);
    const rotated = (await api('POST', `/webhooks/${e.id}/rotate-secret`, { key: e.key })).body.data.secret as string;
    h.receiver.reply('/rotate', { status: 200 });
    h.clock.advance(10_000);
    expect(await attemptDelivery(id)).toBe('delivered');
    const [before, after] = h.receiver.requests('/rotate');
    expect(before!.headers['x-service-signature']).toBe(hmac(e.secret, before!.body));
    expect(after!.headers['x-service-signature']).toBe(hmac(rotated, after!.body));
    expect(after!.headers['x-service-signature']).not.toBe(hmac(e.secret, after!.body));
  });

  it('redelivers as a new delivery with the same bytes', async () => {
    const e = await endpoint('/again');
    const id = await ping(e);
    await attemptDelivery(id);
    const res = await api('POST', `/webhooks/${e.id}/deliveries/${id}/redeliver`, { key: e.key });
    expect(res.status).toBe(201);
    expect(res.body.warnings).toEqual([]);
    expect(res.body.data).toMatchObject({ event: 'ping', attempt: 0, statusCode: null, deliveredAt: null });
    expect(res.body.data.id).not.toBe(id);
    expect(await attemptDelivery(res.body.data.id)).toBe('delivered');
    const [first, second] = h.receiver.requests('/again');
    expect(second!.body.equals(first!.body)).toBe(true);
    expect(second!.headers['x-service-delivery']).toBe(res.body.data.id);
    expect((await row(res.body.data.id)).resendOf).toBe(id);
  });

  it('recovers every delivery that failed since a time, once, as new deliveries', async () => {
    h.receiver.reply('/outage', { status: 502 });
    const e = await endpoint('/outage');
    const ok = await ping(e);
    h.receiver.reply('/outage', { status: 200 });
    await attemptDelivery(ok);
    h.receiver.reply('/outage', { status: 502 });
    const since = h.clock.now();
    const failed = [await ping(e), await ping(e)];
    for (const id of failed) {
      for (let i = 0; i < 3; i++) {
        await attemptDelivery(id);
        h.clock.advance(60_000);
      }
    }
    for (const id of failed) expect((await row(id)).status).toBe('failed');
    const stillRetrying = await ping(e);
    await attemptDelivery(stillRetrying);

    const res = await api('POST', `/webhooks/${e.id}/recover`, { key: e.key, body: { since: since.toISOString() } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { requeued: 2, remaining: 0 }, warnings: [] });
    const copies = await db.webhookDelivery.findMany({ where: { resendOf: { in: failed } } });
    expect(copies.map((c) => c.resendOf).sort()).toEqual([...failed].sort());
    expect(await jobRunAt(copies[0]!.id)).toBeDefined();

    h.receiver.reply('/outage', { status: 200 });
    for (const c of copies) expect(await attemptDelivery(c.id)).toBe('delivered');
    const bodies = h.receiver
      .requests('/outage')
      .slice(-2)
      .map((r) => r.body.toString());
    expect(bodies.sort()).toEqual(copies.map((c) => c.payload).sort());

    // Already sent again: a second call finds nothing; a later `since` neither.
    expect((await api('POST', `/webhooks/${e.id}/recover`, { key: e.key, body: { since: since.toISOString() } })).body.data).toEqual({
      requeued: 0,
      remaining: 0,
    });
    expect((await api('POST', `/webhooks/${e.id}/recover`, { key: e.key, body: { since: h.clock.now().toISOString() } })).body.data.requeued).toBe(0);
    expect((await api('POST', `/webhooks/${e.id}/recover`, { key: e.key, body: {} })).status).toBe(400);
    expect((await api('POST', `/webhooks/${e.id}/recover`, { key: e.key, body: { since: 'yesterday' } })).status).toBe(400);
  });

  it('recovers at most RECOVER_BATCH per call, oldest first, and says how many are left', async () => {
    const e = await endpoint('/many');
    const base = h.clock.now().getTime();
    await db.webhookDelivery.createMany({
      data: Array.from({ length: RECOVER_BATCH + 5 }, (_, i) => ({
        endpointId: e.id,
        event: 'ping',
        payload: `{"n":${i}}`,
        status: 'failed',
        attempt: 3,
        failedAt: new Date(base + i),
      })),
    });
    const first = await api('POST', `/webhooks/${e.id}/recover`, { key: e.key, body: { since: new Date(base).toISOString() } });
    expect(first.body.data).toEqual({ requeued: RECOVER_BATCH, remaining: 5 });
    const second = await api('POST', `/webhooks/${e.id}/recover`, { key: e.key, body: { since: new Date(base).toISOString() } });
    expect(second.body.data).toEqual({ requeued: 5, remaining: 0 });
    const last = await db.webhookDelivery.findMany({ where: { endpointId: e.id, resendOf: { not: null } }, orderBy: { createdAt: 'desc' }, take: 5 });
    expect(last.map((d) => JSON.parse(d.payload).n).sort((a, b) => a - b)).toEqual([1000, 1001, 1002, 1003, 1004]);
  }, 60_000);
});

describe('the delivery log is kept', () => {
  it(`for ${DELIVERY_RETENTION_DAYS} days, and always the newest ${KEEP_PER_ENDPOINT} per endpoint`, async () => {
    const busy = await endpoint('/keep-a');
    const quiet = await endpoint('/keep-b');
    const start = h.clock.now().getTime() - (DELIVERY_RETENTION_DAYS + 10) * 86_400_000;
    const old = (i: number) => new Date(start + i * 1000);
    await db.webhookDelivery.createMany({
      data: [
        ...Array.from({ length: 60 }, (_, i) => ({ endpointId: quiet.id, event: 'ping', payload: '{}', status: 'delivered', createdAt: old(i) })),
        ...Array.from({ length: 10 }, (_, i) => ({ endpointId: busy.id, event: 'ping', payload: '{}', status: 'failed', createdAt: old(i) })),
        { endpointId: busy.id, event: 'ping', payload: '{}', status: 'pending', createdAt: old(-1) },
        ...Array.from({ length: 50 }, () => ({ endpointId: busy.id, event: 'ping', payload: '{}', status: 'delivered' })),
      ],
    });
    expect(await pruneDeliveries()).toBe(10 + 10);
    expect(await db.webhookDelivery.count({ where: { endpointId: quiet.id } })).toBe(50);
    const oldestKept = await db.webhookDelivery.findFirst({ where: { endpointId: quiet.id }, orderBy: { createdAt: 'asc' } });
    expect(oldestKept!.createdAt).toEqual(old(10));
    expect(await db.webhookDelivery.count({ where: { endpointId: busy.id } })).toBe(51); // 50 recent + the pending one
  });
});

describe('production wiring', () => {
  it('delivers through the shared guarded client, trusting the receiver via NODE_EXTRA_CA_CERTS', async () => {
    h.clock.offsetMs = 0; // the other process runs on the wall clock
    const e = await endpoint('/fresh-process');
    const id = await ping(e);
    const moduleUrl = new URL('./attempt.ts', import.meta.url).href;
    const script = `
      const { attemptDelivery } = await import(${JSON.stringify(moduleUrl)});
      const { closeAllConnections } = await import(${JSON.stringify(new URL('../db/connections.ts', import.meta.url).href)});
      process.stdout.write(await attemptDelivery(${JSON.stringify(id)}));
      await closeAllConnections();
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, DATABASE_URL: testDatabaseUrl(), NODE_EXTRA_CA_CERTS: h.receiver.certPath, OUTBOUND_ALLOW_HOSTS: '127.0.0.1' },
      timeout: 30_000,
    });
    expect(stdout).toBe('delivered');
    const [request] = h.receiver.requests('/fresh-process');
    expect(request!.headers['x-service-signature']).toBe(hmac(e.secret, request!.body));
  });
});
