// n8n-nodes-herald against a real Herald: the package built and loaded by n8n's loader, its
// nodes run by n8n's workflow engine (test/n8n-harness.ts), speaking real HTTP to the REST
// handler and the local media store on this file's PostgreSQL database; the trigger registers
// a real endpoint and checks deliveries the real server signed and sent to a local HTTPS receiver.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOMAIN_EVENT_TYPES } from '@/server/events/catalogue';
import { handleMediaRoutes } from '@/server/media/http';
import { LocalDiskStorage, setMediaStorageForTests } from '@/server/media/storage';
import { makePng } from '@/server/media/testing/sample-images';
import { PLATFORMS } from '@/server/shared/platforms';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createSandboxConnection, createWorkspace, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { attemptDelivery } from '@/server/webhooks/attempt';
import { useWebhookHarness } from '@/server/webhooks/testing/webhook-harness';
import { buildAndLoad, executeNode, hookContext, triggerWorkflow, webhookContext, type HarnessOptions, type LoadedPackage } from './n8n-harness';

const outcomes = checkDocumentedOutcomes();
const hooks = useWebhookHarness();
let server: TestServer;
let dir: string;
let pkg: LoadedPackage;

beforeAll(async () => {
  server = await startTestServer({ '/public/v1': outcomes.handle, '/media': handleMediaRoutes });
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-n8n-'));
  setMediaStorageForTests(new LocalDiskStorage({ root: path.join(dir, 'blobs'), baseUrl: server.url, secret: 'n8n-test-secret' }));
  pkg = await buildAndLoad();
}, 120_000);
afterAll(async () => {
  setMediaStorageForTests(undefined);
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  pkg?.remove();
});

let options: HarnessOptions;
let workspaceId: string;
let connectionId: string;
beforeEach(async () => {
  const ws = await createWorkspaceWithKey();
  workspaceId = ws.workspace.id;
  connectionId = (await createSandboxConnection(workspaceId)).id;
  options = { credentials: { apiKey: ws.secret, baseUrl: `${server.url}/`, workspaceId: '' } };
});

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe('the package as n8n loads it', () => {
  it('lists one credential and two nodes, with the lists Herald serves', () => {
    expect(pkg.loader.packageName).toBe('n8n-nodes-herald');
    expect(Object.keys(pkg.loader.credentialTypes)).toEqual(['heraldApi']);
    expect(Object.keys(pkg.loader.nodeTypes).sort()).toEqual(['herald', 'heraldTrigger']);
    const trigger = pkg.module<{ HERALD_EVENTS: readonly string[] }>('dist/nodes/HeraldTrigger/HeraldTrigger.node.js');
    expect([...trigger.HERALD_EVENTS]).toEqual([...DOMAIN_EVENT_TYPES]);
    const props = pkg.module<{ PLATFORMS: readonly string[] }>('dist/nodes/Herald/properties.js');
    expect([...props.PLATFORMS]).toEqual([...PLATFORMS]);
    expect(pkg.node('herald').description.credentials).toEqual([{ name: 'heraldApi', required: true }]);
  });

  it('tests the credential with an authenticated request to its test route', async () => {
    const credential = pkg.loader.getCredential('heraldApi').type;
    const request = credential.test!.request;
    expect(request.url).toBe('/connections');
    // The baseURL expression, evaluated by n8n's expression engine as the credential test does.
    const { workflowLib } = await import('./n8n-harness');
    const wf = new workflowLib.Workflow({ id: 'x', nodes: [], connections: {}, active: false, nodeTypes: pkg.nodeTypes });
    const baseURL = wf.expression.getSimpleParameterValue(
      { id: 'n', name: 'n', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} },
      request.baseURL!,
      'internal',
      { $credentials: options.credentials },
    );
    expect(baseURL).toBe(`${server.url}/public/v1`);
    const authed = await (credential.authenticate as (c: object, r: object) => Promise<{ headers: Record<string, string> }>)(options.credentials, { url: '' });
    const ok = await fetch(`${baseURL}${request.url}`, { headers: authed.headers });
    expect(ok.status).toBe(200);
    const bad = await fetch(`${baseURL}${request.url}`, { headers: { Authorization: 'Bearer sk_live_nope' } });
    expect(bad.status).toBe(401);
  });
});

describe('Herald node', () => {
  it('creates a scheduled post with a first comment and thread parts, gets it, lists it and publishes it', async () => {
    // Threads go to the networks that take them (Mastodon here).
    const mastodon = (await createSandboxConnection(workspaceId, { platform: 'mastodon' })).id;
    const created = await executeNode(pkg, options, {
      resource: 'post',
      operation: 'create',
      content: 'Autumn menu',
      connectionIds: [mastodon],
      additionalFields: { scheduledAt: inHours(24), firstComment: 'Full menu inside' },
      thread: { parts: [{ content: 'Part two' }] },
    });
    expect(created.error).toBeUndefined();
    expect(created.items).toHaveLength(1);
    const post = created.items[0]!.json as { id: string; status: string; content: string; firstComment?: unknown; parts?: unknown };
    expect(post).toMatchObject({ content: 'Autumn menu', status: 'scheduled', firstComment: 'Full menu inside', parts: [{ content: 'Part two' }] });
    const id = post.id;

    const got = await executeNode(pkg, options, { resource: 'post', operation: 'get', postId: id });
    expect(got.items[0]!.json).toMatchObject({ id, status: 'scheduled' });

    const listed = await executeNode(pkg, options, { resource: 'post', operation: 'list', returnAll: true, filters: { status: 'scheduled' } });
    expect(listed.items.map((i) => i.json.id)).toEqual([id]);

    const published = await executeNode(pkg, options, { resource: 'post', operation: 'publish', postId: id });
    expect(published.error).toBeUndefined();
    expect(['publishing', 'published']).toContain(published.items[0]!.json.status);
  });

  it('pages through every post with Return All, and stops at Limit otherwise', async () => {
    for (let n = 0; n < 3; n++) {
      const r = await executeNode(pkg, options, { resource: 'post', operation: 'create', content: `Draft ${n}`, connectionIds: connectionId });
      expect(r.error).toBeUndefined();
    }
    // One item per post over numbered pages of one, as n8n's "Return All" asks.
    const { heraldList } = pkg.module<typeof import('../nodes/Herald/transport')>('dist/nodes/Herald/transport.js');
    expect(typeof heraldList).toBe('function');
    const all = await executeNode(pkg, options, { resource: 'post', operation: 'list', returnAll: true, filters: { status: 'draft' } });
    expect(all.items).toHaveLength(3);
    const two = await executeNode(pkg, options, { resource: 'post', operation: 'list', returnAll: false, limit: 2 });
    expect(two.items).toHaveLength(2);
  });

  it('cancels a draft, and reports Herald’s refusal as a node error', async () => {
    const draft = (await executeNode(pkg, options, { resource: 'post', operation: 'create', content: 'Later', connectionIds: [connectionId] })).items[0]!.json;
    expect(draft.status).toBe('draft');
    const cancelled = await executeNode(pkg, options, { resource: 'post', operation: 'cancel', postId: draft.id });
    expect(cancelled.error).toBeUndefined();
    const again = await executeNode(pkg, options, { resource: 'post', operation: 'get', postId: draft.id });
    expect(again.items[0]!.json.status).toBe('cancelled');

    const past = await executeNode(pkg, options, {
      resource: 'post',
      operation: 'create',
      content: 'Too late',
      connectionIds: [connectionId],
      additionalFields: { scheduledAt: new Date(Date.now() - 86_400_000).toISOString() },
    });
    expect(past.items).toEqual([]);
    expect(past.error?.message).toContain('SCHEDULED_TIME_IN_PAST');
  });

  it('replays a write sent again with the same Idempotency Key', async () => {
    const params = { resource: 'post', operation: 'create', content: 'Once', connectionIds: [connectionId], options: { idempotencyKey: 'n8n-run-42' } };
    const first = await executeNode(pkg, options, params);
    const second = await executeNode(pkg, options, params);
    expect(second.items[0]!.json.id).toBe(first.items[0]!.json.id);
    const fresh = await executeNode(pkg, options, { ...params, options: {} });
    expect(fresh.items[0]!.json.id).not.toBe(first.items[0]!.json.id);
  });

  it('uploads media from a binary property (upload URL → PUT → complete) and lists it', async () => {
    const png = makePng(64, 48);
    const uploaded = await executeNode(pkg, options, { resource: 'media', operation: 'upload', binaryPropertyName: 'data' }, [
      { json: {}, binary: { data: { data: png.toString('base64'), mimeType: 'image/png', fileName: 'logo.png' } } },
    ]);
    expect(uploaded.error).toBeUndefined();
    expect(uploaded.items[0]!.json).toMatchObject({ status: 'ready', kind: 'image', contentType: 'image/png', bytes: png.length, name: 'logo.png' });
    const listed = await executeNode(pkg, options, { resource: 'media', operation: 'list', returnAll: true });
    expect(listed.items.map((i) => i.json.id)).toContain(uploaded.items[0]!.json.id);

    const text = await executeNode(pkg, options, { resource: 'media', operation: 'upload', binaryPropertyName: 'data' }, [
      { json: {}, binary: { data: { data: Buffer.from('hello').toString('base64'), mimeType: 'text/plain', fileName: 'a.txt' } } },
    ]);
    expect(text.error?.message).toContain('Herald takes images and videos');
  });

  it('lists connections, and a managed workspace’s with an agency key and the workspace header', async () => {
    const own = await executeNode(pkg, options, { resource: 'connection', operation: 'list' });
    expect(own.items.map((i) => i.json.id)).toEqual([connectionId]);

    const agency = await createWorkspaceWithKey();
    const client = await createWorkspace({ managedById: agency.workspace.id });
    const clientConnection = await createSandboxConnection(client.id, { platform: 'mastodon' });
    const forClient = await executeNode(
      pkg,
      { credentials: { apiKey: agency.secret, baseUrl: server.url, workspaceId: client.id } },
      { resource: 'connection', operation: 'list' },
    );
    expect(forClient.items.map((i) => i.json.id)).toEqual([clientConnection.id]);
  });

  it('reads a post’s metrics, the workspace’s top posts and an empty inbox', async () => {
    const post = (
      await executeNode(pkg, options, {
        resource: 'post',
        operation: 'create',
        content: 'Metrics',
        connectionIds: [connectionId],
        additionalFields: { scheduledAt: inHours(2) },
      })
    ).items[0]!.json;
    const metrics = await executeNode(pkg, options, { resource: 'analytics', operation: 'postMetrics', postId: post.id });
    expect(metrics.error).toBeUndefined();
    const today = new Date().toISOString().slice(0, 10);
    const top = await executeNode(pkg, options, { resource: 'analytics', operation: 'topPosts', from: today, to: today, topOptions: { limit: 5 } });
    expect(top.error).toBeUndefined();
    expect(top.items).toEqual([]);
    const inbox = await executeNode(pkg, options, { resource: 'inbox', operation: 'list', returnAll: true, filters: { status: 'all' } });
    expect(inbox.error).toBeUndefined();
    expect(inbox.items).toEqual([]);
  });
});

describe('Herald Trigger', () => {
  it('registers an endpoint on activation, accepts a delivery Herald signed, refuses a tampered one, and deletes the endpoint on deactivation', async () => {
    const hookOptions: HarnessOptions = { ...options, webhookBaseUrl: hooks.receiver.url('/webhook') };
    const { node, workflow } = triggerWorkflow(pkg, { events: ['post.published', 'post.failed'], endpointName: 'n8n test' });
    const trigger = pkg.node('heraldTrigger');
    const methods = trigger.webhookMethods!.default!;

    const activation = hookContext(pkg, hookOptions, workflow, node);
    expect(await methods.checkExists.call(activation)).toBe(false);
    expect(await methods.create.call(activation)).toBe(true);
    const stored = workflow.getStaticData('node', node) as { endpointId?: string; secret?: string };
    expect(stored.endpointId).toBeTruthy();
    expect(stored.secret).toBeTruthy();
    expect(await methods.checkExists.call(activation)).toBe(true);

    // What Herald registered: this node's webhook URL, for the chosen events.
    const listed = await executeNode(pkg, options, { resource: 'connection', operation: 'list' });
    expect(listed.error).toBeUndefined();
    const endpoint = await fetch(`${server.url}/public/v1/webhooks/${stored.endpointId}`, {
      headers: { Authorization: `Bearer ${options.credentials.apiKey}` },
    }).then((r) => r.json() as Promise<{ data: { url: string; events: string[] } }>);
    expect(endpoint.data.url).toBe(`${hooks.receiver.url('/webhook')}/herald-hook/webhook`);
    expect(endpoint.data.events).toEqual(['post.published', 'post.failed']);

    // A real delivery: Herald's test route signs a ping and sends it to the receiver.
    const ping = await fetch(`${server.url}/public/v1/webhooks/${stored.endpointId}/test`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${options.credentials.apiKey}`, 'Idempotency-Key': 'ping-1' },
    }).then((r) => r.json() as Promise<{ data: { id: string } }>);
    expect(await attemptDelivery(ping.data.id)).toBe('delivered');
    const [delivery] = await hooks.receiver.waitFor(1, '/webhook/herald-hook/webhook');

    const accepted = webhookContext(pkg, hookOptions, workflow, node, delivery!);
    const result = await trigger.webhook!.call(accepted.context);
    expect(result.noWebhookResponse).toBeUndefined();
    expect(result.workflowData?.[0]?.[0]?.json).toMatchObject({ event: 'ping', version: '1', deliveryId: delivery!.headers['x-service-delivery'] });

    const tamperedBody = Buffer.from(delivery!.body.toString('utf8').replace('"ping"', '"post.published"'));
    const tampered = webhookContext(pkg, hookOptions, workflow, node, { headers: delivery!.headers, body: tamperedBody });
    const refused = await trigger.webhook!.call(tampered.context);
    expect(refused).toEqual({ noWebhookResponse: true });
    expect(tampered.response.statusCode).toBe(401);

    const unsigned = webhookContext(pkg, hookOptions, workflow, node, { headers: { ...delivery!.headers, 'x-service-signature': '' }, body: delivery!.body });
    expect(await trigger.webhook!.call(unsigned.context)).toEqual({ noWebhookResponse: true });
    expect(unsigned.response.statusCode).toBe(401);

    expect(await methods.delete.call(activation)).toBe(true);
    expect(workflow.getStaticData('node', node)).toEqual({});
    const gone = await fetch(`${server.url}/public/v1/webhooks/${endpoint ? stored.endpointId : ''}`, {
      headers: { Authorization: `Bearer ${options.credentials.apiKey}` },
    });
    expect(gone.status).toBe(404);
    // After deletion the stored secret is gone too: even the genuine delivery is refused.
    const afterDelete = webhookContext(pkg, hookOptions, workflow, node, delivery!);
    expect(await trigger.webhook!.call(afterDelete.context)).toEqual({ noWebhookResponse: true });
  });
});
