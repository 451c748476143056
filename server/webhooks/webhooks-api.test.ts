// The /webhooks routes over HTTP: shapes, codes, scope, strict bodies, URL rules, not-found.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { DOMAIN_EVENT_TYPES } from '@/server/events/catalogue';
import { GET as openApiDocument } from '@/app/public/v1/openapi.json/route';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { openSecret } from './secrets';
import { fakeDns, TEST_ALLOW_HOSTS, useWebhookHarness } from './testing/webhook-harness';

const api = usePublicApi();
const h = useWebhookHarness();

afterEach(() => {
  h.install();
  vi.stubEnv('OUTBOUND_ALLOW_HOSTS', TEST_ALLOW_HOSTS);
});

async function setup() {
  const { workspace, secret } = await createWorkspaceWithKey();
  return { workspace, key: secret };
}

async function register(key: string, body: Record<string, unknown> = {}) {
  return api('POST', '/webhooks', { key, body: { name: 'Orders', url: h.receiver.url('/hook'), events: ['post.published', 'post.failed'], ...body } });
}

describe('POST /webhooks', () => {
  it('registers an endpoint and returns its secret once', async () => {
    const { workspace, key } = await setup();
    const res = await register(key);
    expect(res.status).toBe(201);
    expect(res.body.warnings).toEqual([]);
    expect(res.body.data).toMatchObject({
      name: 'Orders',
      url: h.receiver.url('/hook'),
      events: ['post.published', 'post.failed'],
      active: true,
      consecutiveFailures: 0,
      lastDeliveryAt: null,
    });
    expect(res.body.data.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(Object.keys(res.body.data).sort()).toEqual([
      'active',
      'consecutiveFailures',
      'createdAt',
      'events',
      'id',
      'lastDeliveryAt',
      'name',
      'secret',
      'updatedAt',
      'url',
    ]);

    // Stored sealed, never in clear; readable with the key.
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row.workspaceId).toBe(workspace.id);
    expect(row.secretSealed).not.toContain(res.body.data.secret.slice(6));
    expect(openSecret(row.secretSealed)).toBe(res.body.data.secret);

    // Never listed or read back.
    const list = await api('GET', '/webhooks', { key });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect('secret' in list.body.data[0]!).toBe(false);
    const read = await api('GET', `/webhooks/${res.body.data.id}`, { key });
    expect(read.body.data).toEqual(list.body.data[0]);
    expect(JSON.stringify([list.body, read.body])).not.toContain('whsec_');
  });

  it('accepts every catalogue event', async () => {
    const { key } = await setup();
    const res = await register(key, { events: [...DOMAIN_EVENT_TYPES] });
    expect(res.status).toBe(201);
    expect(res.body.data.events).toEqual([...DOMAIN_EVENT_TYPES]);
  });

  it.each([
    [['post.exploded'], 'events[0]'],
    [['post.published', 'Post.Failed'], 'events[1]'],
    [['ping'], 'events[0]'],
  ])('refuses %j with WEBHOOK_EVENT_UNKNOWN', async (events, field) => {
    const { key } = await setup();
    const res = await register(key, { events });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'WEBHOOK_EVENT_UNKNOWN', field });
  });

  it('refuses an empty or repeated event list as a schema error', async () => {
    const { key } = await setup();
    const empty = await register(key, { events: [] });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ statusCode: 400, message: ['events: list at least one event'], error: 'Bad Request' });
    const twice = await register(key, { events: ['post.failed', 'post.failed'] });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toEqual(['events: list each event once']);
  });

  it('checks the name (1–80 characters) and refuses unknown fields', async () => {
    const { key } = await setup();
    expect((await register(key, { name: '' })).status).toBe(400);
    expect((await register(key, { name: 'x'.repeat(81) })).status).toBe(400);
    expect((await register(key, { name: 'x'.repeat(80) })).status).toBe(201);
    const extra = await register(key, { secret: 'whsec_mine' });
    expect(extra.body).toEqual({ statusCode: 400, message: ['secret is not allowed'], error: 'Bad Request' });
    const missing = await api('POST', '/webhooks', { key, body: { name: 'x', events: ['post.failed'] } });
    expect(missing.body.message).toEqual(['url is required']);
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const { key } = await setup();
    const headers = { 'Idempotency-Key': 'create-hook-1' };
    const body = { name: 'Once', url: h.receiver.url('/once'), events: ['post.failed'] };
    const first = await api('POST', '/webhooks', { key, body, headers });
    const second = await api('POST', '/webhooks', { key, body, headers });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.data.id).toBe(first.body.data.id);
    expect((await api('GET', '/webhooks', { key })).body.data).toHaveLength(1);
  });

  it('needs webhooks:manage', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    for (const [method, path] of [
      ['GET', '/webhooks'],
      ['POST', '/webhooks'],
    ] as const) {
      const res = await api(method, path, {
        key: secret,
        body: method === 'POST' ? { name: 'x', url: h.receiver.url('/x'), events: ['post.failed'] } : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('SCOPE_MISSING');
    }
  });
});

describe('URL rules at registration', () => {
  const refused = [
    ['http://hooks.example.com/in', 'Only https URLs are allowed'],
    ['ftp://hooks.example.com/in', 'Only https URLs are allowed'],
    ['https://user:pw@hooks.example.com/in', 'must not contain a user name or password'],
    ['https://user@hooks.example.com/in', 'must not contain a user name or password'],
    ['https://localhost/in', 'Local host names'],
    ['https://LOCALHOST./in', 'Local host names'],
    ['https://api.localhost/in', 'Local host names'],
    ['https://10.0.0.1/in', 'private or reserved'],
    ['https://172.16.0.1/in', 'private or reserved'],
    ['https://192.168.1.1/in', 'private or reserved'],
    ['https://127.0.0.2/in', 'private or reserved'],
    ['https://2130706433/in', 'private or reserved'],
    ['https://0x7f.0.0.1/in', 'private or reserved'],
    ['https://0177.0.0.1/in', 'private or reserved'],
    ['https://127.1/in', 'private or reserved'],
    ['https://169.254.169.254/latest/meta-data', 'private or reserved'],
    ['https://100.64.0.1/in', 'private or reserved'],
    ['https://0.0.0.0/in', 'private or reserved'],
    ['https://[::1]/in', 'private or reserved'],
    ['https://[::]/in', 'private or reserved'],
    ['https://[fe80::1]/in', 'private or reserved'],
    ['https://[fc00::1]/in', 'private or reserved'],
    ['https://[fd12:3456::1]/in', 'private or reserved'],
    ['https://[::ffff:127.0.0.1]/in', 'private or reserved'],
    ['https://[::ffff:7f00:2]/in', 'private or reserved'],
    ['https://[::ffff:10.0.0.1]/in', 'private or reserved'],
    ['https://[::127.0.0.1]/in', 'private or reserved'],
    ['https://[64:ff9b::a00:1]/in', 'private or reserved'],
    ['https://private.test/in', 'resolves to 10.1.2.3'],
    ['https://mixed.test/in', 'resolves to 192.168.0.9'],
    ['https://v6private.test/in', 'resolves to fd00::5'],
    ['https://missing.test/in', 'could not be resolved'],
    ['not a url', 'not valid'],
  ] as const;

  it.each(refused)('refuses %s (400 WEBHOOK_URL_REFUSED with the reason)', async (url, reason) => {
    h.dns['private.test'] = ['10.1.2.3'];
    h.dns['mixed.test'] = ['93.184.216.34', '192.168.0.9'];
    h.dns['v6private.test'] = ['fd00::5'];
    // Nothing exempt here: every form of a private address must be caught.
    vi.stubEnv('OUTBOUND_ALLOW_HOSTS', '');
    const { key } = await setup();
    const res = await register(key, { url });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'WEBHOOK_URL_REFUSED', field: 'url' });
    expect(res.body.error.message).toContain(reason);
  });

  it('applies the same rules to a URL change, and accepts a public host', async () => {
    h.dns['public.test'] = ['93.184.216.34'];
    const { key } = await setup();
    const created = await register(key);
    const id = created.body.data.id;
    const bad = await api('PATCH', `/webhooks/${id}`, { key, body: { url: 'https://169.254.169.254/' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('WEBHOOK_URL_REFUSED');
    expect((await api('GET', `/webhooks/${id}`, { key })).body.data.url).toBe(h.receiver.url('/hook'));
    const good = await api('PATCH', `/webhooks/${id}`, { key, body: { url: 'https://PUBLIC.test:8443/in?x=1' } });
    expect(good.status).toBe(200);
    expect(good.body.data.url).toBe('https://public.test:8443/in?x=1');
  });

  it('refuses a host that does not resolve at registration', async () => {
    // A client whose DNS knows no name at all.
    const { createOutboundClient } = await import('@/server/outbound');
    const client = createOutboundClient({ resolve: fakeDns({}) });
    h.install({ client });
    const { key } = await setup();
    const res = await register(key, { url: 'https://nowhere.invalid/hook' });
    expect(res.body.error).toMatchObject({ code: 'WEBHOOK_URL_REFUSED' });
    await client.close();
  });
});

describe('GET/PATCH/DELETE /webhooks/{id}', () => {
  it('changes only the fields sent', async () => {
    const { key } = await setup();
    const created = (await register(key)).body.data;
    const res = await api('PATCH', `/webhooks/${created.id}`, { key, body: { name: 'Renamed', events: ['connection.error'] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { name: 'Renamed', events: ['connection.error'], url: created.url, active: true }, warnings: [] });
    expect('secret' in res.body.data).toBe(false);
    const none = await api('PATCH', `/webhooks/${created.id}`, { key, body: {} });
    expect(none.body.data).toMatchObject({ name: 'Renamed', events: ['connection.error'] });
  });

  it('refuses a PATCH with unknown fields, unknown events or a non-boolean active', async () => {
    const { key } = await setup();
    const { id } = (await register(key)).body.data;
    expect((await api('PATCH', `/webhooks/${id}`, { key, body: { secret: 'x' } })).status).toBe(400);
    expect((await api('PATCH', `/webhooks/${id}`, { key, body: { events: ['nope'] } })).body.error.code).toBe('WEBHOOK_EVENT_UNKNOWN');
    const stringy = await api('PATCH', `/webhooks/${id}`, { key, body: { active: 'false' } });
    expect(stringy.status).toBe(400);
    expect((await api('GET', `/webhooks/${id}`, { key })).body.data.active).toBe(true);
  });

  it('answers WEBHOOK_NOT_FOUND for unknown ids, non-uuids and another workspace’s endpoint alike', async () => {
    const mine = await setup();
    const theirs = await setup();
    const foreign = (await register(theirs.key)).body.data.id;
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', foreign]) {
      for (const [method, path, body] of [
        ['GET', `/webhooks/${id}`],
        ['PATCH', `/webhooks/${id}`, { name: 'x' }],
        ['DELETE', `/webhooks/${id}`],
        ['POST', `/webhooks/${id}/rotate-secret`],
        ['GET', `/webhooks/${id}/deliveries`],
        ['POST', `/webhooks/${id}/test`],
        ['POST', `/webhooks/${id}/recover`, { since: new Date().toISOString() }],
        ['POST', `/webhooks/${id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`],
      ] as const) {
        const res = await api(method, path, { key: mine.key, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ error: { code: 'WEBHOOK_NOT_FOUND', message: 'No webhook endpoint with that id', field: 'id' } });
      }
    }
    // The other workspace's endpoint is untouched.
    expect((await api('GET', `/webhooks/${foreign}`, { key: theirs.key })).body.data.name).toBe('Orders');
  });

  it('answers WEBHOOK_DELIVERY_NOT_FOUND for a delivery that is not on that endpoint', async () => {
    const { key } = await setup();
    const a = (await register(key)).body.data.id;
    const b = (await register(key)).body.data.id;
    const ping = (await api('POST', `/webhooks/${a}/test`, { key })).body.data.id;
    for (const deliveryId of [ping, 'nope', '00000000-0000-4000-8000-000000000000']) {
      const res = await api('POST', `/webhooks/${b}/deliveries/${deliveryId}/redeliver`, { key });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'WEBHOOK_DELIVERY_NOT_FOUND', field: 'deliveryId' });
    }
  });

  it('deletes the endpoint and its delivery log (204, no body)', async () => {
    const { key } = await setup();
    const { id } = (await register(key)).body.data;
    await api('POST', `/webhooks/${id}/test`, { key });
    const res = await api('DELETE', `/webhooks/${id}`, { key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api('GET', `/webhooks/${id}`, { key })).status).toBe(404);
    expect(await db.webhookDelivery.count({ where: { endpointId: id } })).toBe(0);
  });

  it('rotates the secret: a new one, returned once, stored sealed', async () => {
    const { key } = await setup();
    const created = (await register(key)).body.data;
    const res = await api('POST', `/webhooks/${created.id}/rotate-secret`, { key });
    expect(res.status).toBe(201);
    expect(res.body.data.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(res.body.data.secret).not.toBe(created.secret);
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(openSecret(row.secretSealed)).toBe(res.body.data.secret);
  });
});

describe('GET /webhooks/{id}/deliveries', () => {
  it('lists newest first, 50 by default, limit 1–50', async () => {
    const { key } = await setup();
    const { id } = (await register(key)).body.data;
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) sent.push((await api('POST', `/webhooks/${id}/test`, { key })).body.data.id);
    const all = await api('GET', `/webhooks/${id}/deliveries`, { key });
    expect(all.status).toBe(200);
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([...sent].reverse());
    const first = all.body.data[0];
    expect(Object.keys(first).sort()).toEqual(['attempt', 'createdAt', 'deliveredAt', 'error', 'event', 'id', 'nextAttemptAt', 'payload', 'statusCode']);
    expect(first).toMatchObject({
      event: 'ping',
      attempt: 0,
      statusCode: null,
      error: null,
      deliveredAt: null,
      payload: { version: '1', event: 'ping', data: { endpointId: id } },
    });
    expect((await api('GET', `/webhooks/${id}/deliveries?limit=2`, { key })).body.data).toHaveLength(2);
    expect((await api('GET', `/webhooks/${id}/deliveries?limit=0`, { key })).status).toBe(400);
    expect((await api('GET', `/webhooks/${id}/deliveries?limit=51`, { key })).status).toBe(400);
    expect((await api('GET', `/webhooks/${id}/deliveries?limit=50`, { key })).status).toBe(200);
  });
});

describe('the contract document', () => {
  it('has every webhook route with its status and error codes, recover marked as an extension', async () => {
    const doc = await (await openApiDocument(new Request('http://localhost/public/v1/openapi.json'))).json();
    const routes: [string, string, string, string[]][] = [
      ['/webhooks', 'get', '200', []],
      ['/webhooks', 'post', '201', ['WEBHOOK_URL_REFUSED', 'WEBHOOK_EVENT_UNKNOWN']],
      ['/webhooks/{id}', 'get', '200', ['WEBHOOK_NOT_FOUND']],
      ['/webhooks/{id}', 'patch', '200', ['WEBHOOK_NOT_FOUND', 'WEBHOOK_URL_REFUSED', 'WEBHOOK_EVENT_UNKNOWN']],
      ['/webhooks/{id}', 'delete', '204', ['WEBHOOK_NOT_FOUND']],
      ['/webhooks/{id}/rotate-secret', 'post', '201', ['WEBHOOK_NOT_FOUND']],
      ['/webhooks/{id}/deliveries', 'get', '200', ['WEBHOOK_NOT_FOUND']],
      ['/webhooks/{id}/deliveries/{deliveryId}/redeliver', 'post', '201', ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND']],
      ['/webhooks/{id}/test', 'post', '201', ['WEBHOOK_NOT_FOUND']],
      ['/webhooks/{id}/recover', 'post', '201', ['WEBHOOK_NOT_FOUND']],
    ];
    for (const [path, method, status, codes] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(Object.keys(op.responses)).toContain(status);
      const described = JSON.stringify(op.responses);
      for (const code of codes) expect(described, `${method} ${path} ${code}`).toContain(code);
    }
    expect(doc.paths['/webhooks/{id}/recover'].post.description).toContain('Not part of the v1 contract');
    expect(doc.paths['/webhooks'].post.requestBody.content['application/json'].schema.properties.events).toMatchObject({ minItems: 1, uniqueItems: true });
  });
});
