// What an assistant sees of the tool endpoint before and around its calls, through the
// protocol SDK's own client over real HTTP: the size and wording of tools/list, that nothing
// is staged that could not run if confirmed now (and a stale action is refused at
// confirmation), the Origin check against DNS rebinding with CORS for allowed browser
// origins, and the JSON-RPC errors' codes and texts.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SCOPES } from '@/server/auth/scopes';
import { db } from '@/server/db/client';
import { getOpenApiDocument } from '@/server/http/openapi';
import { restRoutes } from '@/server/http/rest-routes';
import { createCaller } from '@/server/root';
import { apiClient, type ApiCall } from '@/server/testing/api-client';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { createRequestContext } from '@/server/trpc/context';
import { handleMcp } from './endpoint';
import { TOOLS_LIST_BUDGET_KB, tools, toolNameOf } from './tools';

const outcomes = checkDocumentedOutcomes();
let server: TestServer;
let api: ApiCall;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ '/public/v1/mcp': handleMcp, '/public/v1': outcomes.handle });
  api = apiClient(server.url);
  vi.stubEnv('HERALD_BASE_URL', 'https://herald.example.com');
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server.close();
  vi.unstubAllEnvs();
});

/** A session over every toolset unless told otherwise (server/mcp/toolsets.test.ts covers the choice). */
async function connect(secret: string, toolsets = 'all') {
  const client = new Client({ name: 'surface-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`/public/v1/mcp?toolsets=${toolsets}`, server.url), {
    requestInit: { headers: { Authorization: `Bearer ${secret}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

type Structured = Record<string, any>;
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const body = result.isError ? (JSON.parse((result.content[0] as { text: string }).text) as Structured) : ((result.structuredContent ?? {}) as Structured);
  return { result, body };
}

async function rawPost(body: unknown, headers: Record<string, string>) {
  return fetch(new URL('/public/v1/mcp', server.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

async function staffOf(workspaceId: string) {
  const user = await db.user.create({ data: { email: `member-${randomUUID()}@example.com`, name: 'Member' } });
  await db.membership.create({ data: { userId: user.id, workspaceId, role: 'owner' } });
  return createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id }));
}

/** Every property of a JSON Schema object, nested ones included, with its path. */
function propertiesOf(schema: Structured, at = ''): Array<[string, Structured]> {
  const out: Array<[string, Structured]> = [];
  for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Structured>)) {
    out.push([`${at}${name}`, prop]);
    const inner = prop.type === 'array' ? prop.items : prop;
    if (inner?.type === 'object' && inner.properties) out.push(...propertiesOf(inner, `${at}${name}.`));
  }
  return out;
}

describe('tools/list', () => {
  it(`lists every tool (toolsets=all) in at most ${TOOLS_LIST_BUDGET_KB} KB, each input property described, the error list once`, async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    const { transport } = await connect(secret);
    const res = await rawPost(
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { Authorization: `Bearer ${secret}`, 'Mcp-Session-Id': transport.sessionId! },
    );
    const text = await res.text();
    const listed = (JSON.parse(text) as Structured).result.tools as Structured[];
    expect(listed.map((t) => t.name).sort()).toEqual(
      restRoutes()
        .filter((r) => r.meta.enabled?.() ?? true)
        .map((r) => toolNameOf(r.procedure))
        .sort(),
    );
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(TOOLS_LIST_BUDGET_KB * 1024);

    const undescribed = listed.flatMap((t) =>
      propertiesOf(t.inputSchema)
        .filter(([, p]) => typeof p.description !== 'string' || p.description.length < 12)
        .map(([name]) => `${t.name}.${name}`),
    );
    expect(undescribed).toEqual([]);
    const create = listed.find((t) => t.name === 'posts_create')!;
    for (const name of ['content', 'connectionIds', 'scheduledAt', 'requireApproval']) expect(create.inputSchema.properties[name].description).toBeTruthy();
    expect(create.inputSchema.properties.connectionIds.description).toMatch(/connections_list/);

    // The per-code list is not repeated per tool: it is one resource, named by the instructions.
    for (const t of listed) expect(t.description, t.name).not.toMatch(/IDEMPOTENCY_IN_FLIGHT|SERVICE_UNAVAILABLE/);
    const init = await rawPost(INIT, { Authorization: `Bearer ${secret}` });
    expect(((await init.json()) as Structured).result.instructions).toMatch(/herald:\/\/errors/);
  });

  it('puts the same property descriptions in the REST OpenAPI document', () => {
    const doc = getOpenApiDocument() as unknown as Structured;
    const body = doc.paths['/posts'].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    expect(schema.properties.connectionIds.description).toMatch(/connections_list/);
    expect(schema.properties.connectionIds.description).toBe((tools().get('posts_create')!.inputSchema.properties as Structured).connectionIds.description);
  });

  it('errors name what to do next', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    const { client } = await connect(secret);
    const refused = await call(client, 'posts_create', { content: 'x', connectionIds: [randomUUID()] });
    expect(refused.body.error.code).toBe('SCOPE_MISSING');
    expect(refused.body.error.hint).toMatch(/scope/);
    const missing = await call(client, 'posts_get', { id: randomUUID() });
    expect(missing.body.error.hint).toMatch(/posts_list/);
  });
});

describe('staging only what could run', () => {
  it('refuses at once, as REST does, what would fail if confirmed', async () => {
    const w = await publishingWorkspace();
    const { client } = await connect(w.secret);
    const draft = await call(client, 'posts_create', { content: 'a draft', connectionIds: [w.ok.linkedin.id] });
    const postId = draft.body.data.id as string;
    const cancelled = await api('POST', '/posts', { key: w.secret, body: { content: 'gone', connectionIds: [w.ok.linkedin.id] } });
    await api('DELETE', `/posts/${cancelled.body.data.id}`, { key: w.secret });

    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['posts_publish', { id: randomUUID() }, 'POST_NOT_FOUND'],
      ['posts_cancel', { id: 'zzz' }, 'POST_NOT_FOUND'],
      ['posts_cancel', { id: cancelled.body.data.id }, 'POST_NOT_EDITABLE'],
      ['posts_retry', { id: postId }, 'POST_NOT_EDITABLE'],
      ['posts_update', { id: randomUUID(), scheduledAt: inMinutes(30) }, 'POST_NOT_FOUND'],
      ['posts_create', { content: 'later', connectionIds: [randomUUID()], scheduledAt: inMinutes(30) }, 'CONNECTION_NOT_FOUND'],
      ['posts_create', { content: 'x'.repeat(400), connectionIds: [w.ok.twitter.id], scheduledAt: inMinutes(30) }, 'CONTENT_TOO_LONG'],
      ['media_delete', { id: randomUUID() }, 'MEDIA_NOT_FOUND'],
      ['webhooks_delete', { id: randomUUID() }, 'WEBHOOK_NOT_FOUND'],
      ['webhooks_rotate_secret', { id: randomUUID() }, 'WEBHOOK_NOT_FOUND'],
      ['webhooks_create', { name: 'n', url: 'http://127.0.0.1/hook', events: ['post.published'] }, 'WEBHOOK_URL_REFUSED'],
    ];
    for (const [name, args, code] of cases) {
      const { result, body } = await call(client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(body.error.code, name).toBe(code);
    }
    // The same answer as the REST route.
    const rest = await api('DELETE', '/posts/zzz', { key: w.secret });
    expect(rest.status).toBe(404);
    expect((await call(client, 'posts_cancel', { id: 'zzz' })).body.error.code).toBe(rest.body.error.code);
    expect(await db.assistantProposal.count({ where: { workspaceId: w.workspace.id } })).toBe(0);

    // What can run is still staged.
    const staged = await call(client, 'posts_publish', { id: postId });
    expect(staged.body.staged).toMatchObject({ status: 'staged', toolName: 'posts_publish' });
  });

  it('every staged route has a check that runs before staging', async () => {
    const { stagedRouteChecks } = await import('@/server/proposals/prechecks');
    const staged = restRoutes()
      .filter((r) => r.meta.assistant?.stage)
      .map((r) => r.procedure)
      .sort();
    expect(Object.keys(stagedRouteChecks).sort()).toEqual(staged);
  });

  it('re-checks a stale action when a member confirms it, and queues nothing', async () => {
    const w = await publishingWorkspace();
    const staff = await staffOf(w.workspace.id);
    const { client } = await connect(w.secret);
    const draft = await call(client, 'posts_create', { content: 'to cancel', connectionIds: [w.ok.linkedin.id] });
    const staged = await call(client, 'posts_cancel', { id: draft.body.data.id });
    const actionId = staged.body.staged.actionId as string;
    // Meanwhile the post was cancelled over REST.
    expect((await api('DELETE', `/posts/${draft.body.data.id}`, { key: w.secret })).status).toBe(200);
    const confirmed = await staff.proposals.confirm({ id: actionId });
    expect(confirmed.data).toMatchObject({ status: 'failed', outcome: { ok: false, error: { code: 'POST_NOT_EDITABLE' } } });
    expect((await db.post.findUniqueOrThrow({ where: { id: draft.body.data.id } })).status).toBe('cancelled');
  });
});

describe('Origin', () => {
  it('refuses a foreign Origin with 403 and a JSON-RPC error, serves requests without one', async () => {
    const { secret } = await createWorkspaceWithKey();
    const evil = await rawPost(INIT, { Authorization: `Bearer ${secret}`, Origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    const body = (await evil.json()) as Structured;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.stringMatching(/Origin/) } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const preflightEvil = await fetch(new URL('/public/v1/mcp', server.url), { method: 'OPTIONS', headers: { Origin: 'http://evil.example.com' } });
    expect(preflightEvil.status).toBe(403);
    expect((await rawPost(INIT, { Authorization: `Bearer ${secret}` })).status).toBe(200);
  });

  it('serves the configured origin and the allow list, with CORS headers and preflight', async () => {
    const { secret } = await createWorkspaceWithKey();
    vi.stubEnv('MCP_ALLOWED_ORIGINS', 'https://assistant.example.org, http://localhost:6274');
    try {
      for (const origin of ['https://herald.example.com', 'https://assistant.example.org', 'http://localhost:6274']) {
        const res = await rawPost(INIT, { Authorization: `Bearer ${secret}`, Origin: origin });
        expect(res.status, origin).toBe(200);
        expect(res.headers.get('access-control-allow-origin')).toBe(origin);
        expect(res.headers.get('access-control-expose-headers')).toMatch(/Mcp-Session-Id/i);
        expect(res.headers.get('vary')).toMatch(/Origin/);
      }
      const preflight = await fetch(new URL('/public/v1/mcp', server.url), {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://assistant.example.org',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, mcp-session-id',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://assistant.example.org');
      expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Mcp-Session-Id/i);
      // A refusal (here a bad key) still carries CORS headers, so the browser client can read it.
      const unauthorized = await rawPost(INIT, { Origin: 'https://assistant.example.org' });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('access-control-allow-origin')).toBe('https://assistant.example.org');
    } finally {
      vi.stubEnv('MCP_ALLOWED_ORIGINS', '');
    }
  });
});

describe('JSON-RPC errors and annotations', () => {
  it('says "MCP error <code>" once', async () => {
    const { secret } = await createWorkspaceWithKey();
    const { client } = await connect(secret);
    const err = (await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^MCP error -32602: Unknown tool: no_such_tool/);
    expect(err.message.match(/MCP error/g)).toHaveLength(1);
    const resource = (await client.readResource({ uri: 'herald://nothing' }).catch((e: unknown) => e)) as Error;
    expect(resource.message.match(/MCP error/g)).toHaveLength(1);
  });

  it('refuses a resource read for a missing scope like a tool call, not as an invalid request', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    const { client } = await connect(secret);
    const tool = await call(client, 'connections_list');
    expect(tool.body.error.code).toBe('SCOPE_MISSING');
    const err = (await client.readResource({ uri: 'herald://workspace/connections' }).catch((e: unknown) => e)) as {
      code: number;
      data: Structured;
      message: string;
    };
    expect(err.code).not.toBe(-32600);
    expect(err.data).toEqual(tool.body);
    expect(err.message.match(/MCP error/g)).toHaveLength(1);
  });

  it('marks the tools that reach social networks or webhook receivers as open-world, from route metadata', () => {
    const all = tools();
    // MCP's default for openWorldHint is true: an open-world tool may leave it out.
    const openWorld = (name: string) => all.get(name)!.annotations.openWorldHint ?? true;
    for (const name of ['posts_publish', 'posts_retry', 'webhooks_test', 'webhooks_redeliver']) expect(openWorld(name), name).toBe(true);
    for (const name of ['posts_list', 'posts_cancel', 'webhooks_list']) expect(openWorld(name), name).toBe(false);
    for (const t of all.values()) expect(openWorld(t.name), t.name).toBe(t.route.meta.assistant?.reaches !== undefined);
    expect(all.get('posts_publish')!.annotations.destructiveHint ?? true).toBe(true);
  });

  it('docs/mcp.md states the number of tools there are', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/mcp.md'), 'utf8');
    const counts = [...doc.matchAll(/(\d+) tools/g)].map((m) => Number(m[1]));
    expect(counts.length).toBeGreaterThan(0);
    expect(new Set(counts)).toEqual(new Set([restRoutes().length]));
  });

  it('docs/mcp.md states the size of tools/list as the budget the listing is held to, and no other', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/mcp.md'), 'utf8');
    // The size it states is the budget above (a bound that stays true while that test passes),
    // never a measurement of the day, which the next tool makes false.
    const stated = [...doc.matchAll(/`tools\/list` is small on purpose[^]*?at most (\d+) KB/g)].map((m) => Number(m[1]));
    expect(stated).toEqual([TOOLS_LIST_BUDGET_KB]);
    expect(doc).not.toMatch(/\d[\d,]* bytes/);
  });
});
