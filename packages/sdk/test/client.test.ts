// @herald/sdk against a real Herald: the REST handler and the local media store on a real
// HTTP server, on this file's PostgreSQL database; a small proxy in front of it for 429 and
// 503; real webhook deliveries to a local HTTPS receiver.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { handleMediaRoutes } from '@/server/media/http';
import { LocalDiskStorage, setMediaStorageForTests } from '@/server/media/storage';
import { makePng } from '@/server/media/testing/sample-images';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createSandboxConnection, createWorkspace, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { attemptDelivery } from '@/server/webhooks/attempt';
import { useWebhookHarness } from '@/server/webhooks/testing/webhook-harness';
import { createHerald, HeraldError, WebhookVerificationError, type Herald } from '../src/index';

const outcomes = checkDocumentedOutcomes();
const hooks = useWebhookHarness();
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ '/public/v1': outcomes.handle, '/media': handleMediaRoutes });
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-sdk-'));
  setMediaStorageForTests(new LocalDiskStorage({ root: path.join(dir, 'blobs'), baseUrl: server.url, secret: 'sdk-test-secret' }));
});
afterAll(async () => {
  setMediaStorageForTests(undefined);
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

let herald: Herald;
let workspaceId: string;
let apiKey: string;
let connectionId: string;
beforeEach(async () => {
  const ws = await createWorkspaceWithKey();
  workspaceId = ws.workspace.id;
  apiKey = ws.secret;
  connectionId = (await createSandboxConnection(workspaceId)).id;
  herald = createHerald({ apiKey, baseUrl: server.url });
});

/** The refusal a call ends with (the test fails if it succeeds). */
const refusal = (call: Promise<unknown>): Promise<HeraldError> =>
  call.then(
    () => {
      throw new Error('expected Herald to refuse');
    },
    (e: unknown) => e as HeraldError,
  );
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/** A proxy in front of the real server: answers `first` (429 or 503 with Retry-After: 1) to the first request, then forwards. */
async function flakyProxy(first: { status: number; retryAfter?: string }) {
  const seen: { method: string; idempotencyKey: string | undefined; at: number }[] = [];
  const proxy: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push({ method: req.method!, idempotencyKey: req.headers['idempotency-key'] as string | undefined, at: Date.now() });
    if (seen.length === 1) {
      res.writeHead(first.status, { 'content-type': 'application/json', ...(first.retryAfter ? { 'retry-after': first.retryAfter } : {}) });
      return res.end(
        JSON.stringify({ statusCode: first.status, message: 'try again', error: first.status === 429 ? 'Too Many Requests' : 'Service Unavailable' }),
      );
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<
      string,
      string
    >;
    const upstream = await fetch(server.url + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

describe('posts', () => {
  it('creates, reads, updates, lists, publishes and cancels through the helpers', async () => {
    const created = await herald.posts.create({ content: 'Autumn menu', connectionIds: [connectionId], scheduledAt: inHours(24) });
    expect(created.data).toMatchObject({ content: 'Autumn menu', status: 'scheduled' });
    expect(created.warnings).toEqual([]);
    const id = created.data.id;

    expect((await herald.posts.get(id)).data.targets).toHaveLength(1);
    expect((await herald.posts.update(id, { content: 'Autumn menu, now with pumpkin' })).data.content).toBe('Autumn menu, now with pumpkin');
    const listed = [];
    for await (const post of herald.posts.list({ status: 'scheduled' })) listed.push(post.id);
    expect(listed).toEqual([id]);

    const draft = (await herald.posts.create({ content: 'Later', connectionIds: [connectionId] })).data;
    expect(draft.status).toBe('draft');
    await herald.posts.cancel(draft.id);
    expect((await herald.posts.get(draft.id)).data.status).toBe('cancelled');

    const published = await herald.posts.publish(id);
    expect(['publishing', 'published']).toContain(published.data.status);
    // The raw request() reaches every other route, typed from the document.
    const targets = await herald.request('GET', '/posts/{id}/targets', { path: { id } });
    expect(targets.data[0]!.connectionId).toBe(connectionId);
  });

  it('sends an Idempotency-Key on every write, and uses the caller’s as is', async () => {
    const body = { content: 'Once', connectionIds: [connectionId] };
    const first = await herald.posts.create(body, { idempotencyKey: 'launch-1' });
    const again = await herald.posts.create(body, { idempotencyKey: 'launch-1' });
    expect(again.data.id).toBe(first.data.id);
    const other = await herald.posts.create(body);
    expect(other.data.id).not.toBe(first.data.id);
    expect(await db.idempotencyRecord.count({ where: { workspaceId } })).toBe(2);
  });
});

describe('retries', () => {
  it.each([
    [429, 'RATE_LIMITED'],
    [503, 'SERVICE_UNAVAILABLE'],
  ])('waits out Retry-After after a %s, resending the same Idempotency-Key: one post is created', async (status) => {
    const proxy = await flakyProxy({ status, retryAfter: '1' });
    try {
      const client = createHerald({ apiKey, baseUrl: proxy.url });
      const created = await client.posts.create({ content: 'Retried', connectionIds: [connectionId] });
      expect(proxy.seen).toHaveLength(2);
      expect(proxy.seen[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(proxy.seen[1]!.idempotencyKey).toBe(proxy.seen[0]!.idempotencyKey);
      expect(proxy.seen[1]!.at - proxy.seen[0]!.at).toBeGreaterThanOrEqual(950);
      expect(await db.post.count({ where: { workspaceId } })).toBe(1);
      expect(created.data.content).toBe('Retried');
    } finally {
      await proxy.close();
    }
  });

  it('never resends a write sent without a key, and gives up on a Retry-After over the cap', async () => {
    const proxy = await flakyProxy({ status: 429, retryAfter: '1' });
    try {
      const client = createHerald({ apiKey, baseUrl: proxy.url });
      const error = await client.posts
        .create({ content: 'No key', connectionIds: [connectionId] }, { idempotencyKey: null })
        .then(undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(HeraldError);
      expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 1 });
      expect(proxy.seen).toHaveLength(1);
      expect(proxy.seen[0]!.idempotencyKey).toBeUndefined();
    } finally {
      await proxy.close();
    }
    const slow = await flakyProxy({ status: 503, retryAfter: '120' });
    try {
      const client = createHerald({ apiKey, baseUrl: slow.url, maxRetryDelayMs: 5_000 });
      await expect(client.connections.list()).rejects.toMatchObject({ status: 503, retryAfter: 120 });
      expect(slow.seen).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

describe('pagination', () => {
  it('walks 1,000 posts page by page, each once', async () => {
    const base = Date.now();
    await db.post.createMany({
      data: Array.from({ length: 1000 }, (_, i) => ({
        workspaceId,
        content: `Post ${i}`,
        status: 'draft',
        platforms: ['linkedin'],
        connectionIds: [connectionId],
        createdAt: new Date(base - i * 1000),
      })),
    });
    const contents: string[] = [];
    for await (const post of herald.posts.list({ limit: 200 })) contents.push(post.content);
    expect(contents).toHaveLength(1000);
    expect(new Set(contents).size).toBe(1000);
    expect(contents[0]).toBe('Post 0');
    expect(contents[999]).toBe('Post 999');

    // The generic paginate(), with the server's default page size (50 a page: 20 requests).
    let count = 0;
    for await (const post of herald.paginate('/posts', { status: 'draft' })) count += post.status === 'draft' ? 1 : 0;
    expect(count).toBe(1000);
  }, 60_000);
});

describe('errors', () => {
  it('carry status, code, message, field and the request id', async () => {
    const missing = await refusal(herald.posts.get('00000000-0000-4000-8000-000000000000'));
    expect(missing).toBeInstanceOf(HeraldError);
    expect(missing).toMatchObject({ status: 404, code: 'POST_NOT_FOUND' });
    expect(missing.requestId).toMatch(/\S{8,}/);
    expect(missing.message.length).toBeGreaterThan(0);

    const past = await refusal(
      herald.posts.create({ content: 'Too late', connectionIds: [connectionId], scheduledAt: new Date(Date.now() - 86_400_000).toISOString() }),
    );
    expect(past).toMatchObject({ status: 400, code: 'SCHEDULED_TIME_IN_PAST', field: 'scheduledAt' });

    const badKey = await herald.posts
      .create({ content: 'x', connectionIds: [connectionId] }, { idempotencyKey: 'x'.repeat(300) })
      .then(undefined, (e: unknown) => e);
    expect(badKey).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'Idempotency-Key' });

    const flat = await refusal(createHerald({ apiKey: 'sk_live_nope', baseUrl: server.url }).connections.list());
    expect(flat).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(flat.requestId).toBeTruthy();
  });

  it('sends the workspace header for an agency key', async () => {
    const agency = await createWorkspaceWithKey();
    const client = await createWorkspace({ managedById: agency.workspace.id });
    const clientConnection = await createSandboxConnection(client.id, { platform: 'mastodon' });
    const forClient = createHerald({ apiKey: agency.secret, baseUrl: server.url, workspaceId: client.id });
    expect((await forClient.connections.list()).data.map((c) => c.id)).toEqual([clientConnection.id]);
    const own = await forClient.connections.list({ workspaceId: null });
    expect(own.data).toEqual([]);
    const stranger = await createHerald({ apiKey: agency.secret, baseUrl: server.url, workspaceId })
      .connections.list()
      .then(undefined, (e: unknown) => e);
    expect(stranger).toMatchObject({ status: 403, code: 'WORKSPACE_NOT_MANAGED' });
  });
});

describe('media.upload', () => {
  it('asks for an upload URL, PUTs the bytes with progress, and completes', async () => {
    const png = makePng(64, 48);
    const progress: number[] = [];
    const asset = await herald.media.upload(png, { contentType: 'image/png', name: 'logo.png', onProgress: (sent) => progress.push(sent) });
    expect(asset.data).toMatchObject({ status: 'ready', kind: 'image', contentType: 'image/png', bytes: png.length, width: 64, height: 48, name: 'logo.png' });
    expect(progress.at(-1)).toBe(png.length);

    const blob = new Blob([new Uint8Array(makePng(10, 10))], { type: 'image/png' });
    expect((await herald.media.upload(blob, {})).data.status).toBe('ready');
    const listed = [];
    for await (const item of herald.media.list()) listed.push(item.id);
    expect(listed).toContain(asset.data.id);
  });
});

describe('webhooks', () => {
  it('verifies deliveries Herald signed, across a rotation, and refuses tampered or old ones', async () => {
    const endpoint = (await herald.webhooks.create({ name: 'sdk', url: hooks.receiver.url('/sdk'), events: ['post.published'] })).data;
    const first = endpoint.secret;
    expect((await herald.webhooks.list()).data.map((w) => w.id)).toEqual([endpoint.id]);

    const ping = (await herald.webhooks.test(endpoint.id)).data.id;
    expect(await attemptDelivery(ping)).toBe('delivered');
    const [delivery] = await hooks.receiver.waitFor(1, '/sdk');
    const event = await herald.webhooks.verify(delivery!.body, delivery!.headers, first);
    expect(event).toMatchObject({ event: 'ping', data: { endpointId: endpoint.id } });

    const tampered = Buffer.from(delivery!.body.toString().replace('"ping"', '"pong"'));
    await expect(herald.webhooks.verify(tampered, delivery!.headers, first)).rejects.toMatchObject({ reason: 'SIGNATURE_MISMATCH' });
    await expect(herald.webhooks.verify(delivery!.body, {}, first)).rejects.toBeInstanceOf(WebhookVerificationError);
    // The signed timestamp, held to a tolerance when asked.
    const later = () => new Date(Date.now() + 10 * 60_000);
    await expect(herald.webhooks.verify(delivery!.body, delivery!.headers, first, { toleranceSeconds: 300, now: later })).rejects.toMatchObject({
      reason: 'TIMESTAMP_OUT_OF_TOLERANCE',
    });
    await expect(herald.webhooks.verify(delivery!.body, delivery!.headers, first, { toleranceSeconds: 300 })).resolves.toMatchObject({ event: 'ping' });

    // Rotated: the receiver that knows both secrets accepts, one that knows only the old refuses.
    const second = (await herald.webhooks.rotateSecret(endpoint.id)).data.secret;
    const next = (await herald.webhooks.test(endpoint.id)).data.id;
    expect(await attemptDelivery(next)).toBe('delivered');
    const rotated = (await hooks.receiver.waitFor(2, '/sdk'))[1]!;
    await expect(herald.webhooks.verify(rotated.body, new Headers(rotated.headers), [first, second])).resolves.toMatchObject({ event: 'ping' });
    await expect(herald.webhooks.verify(rotated.body, rotated.headers, first)).rejects.toMatchObject({ reason: 'SIGNATURE_MISMATCH' });

    await herald.webhooks.update(endpoint.id, { active: false });
    expect((await herald.webhooks.get(endpoint.id)).data.active).toBe(false);
    await herald.webhooks.delete(endpoint.id);
    expect((await herald.webhooks.list()).data).toEqual([]);
  });
});
