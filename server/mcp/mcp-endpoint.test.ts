// The tool endpoint through the protocol SDK's own client and Streamable HTTP transport,
// against real HTTP servers around the same handler the app serves: sessions, tools from
// every route, errors and scopes as REST answers them, the shared rate limit, idempotency,
// staged actions confirmed by a member and run once, and events on the session stream.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { restRoutes } from '@/server/http/rest-routes';
import { closeJobs, startLocalRunner, type LocalRunner } from '@/server/jobs';
import { createCaller } from '@/server/root';
import { runnableJobs } from '@/server/runtime/job-handlers';
import { HEADERS } from '@/server/shared/headers';
import { apiClient, type ApiCall } from '@/server/testing/api-client';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createKey, createWorkspace, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { testDatabaseUrl } from '@/server/testing/per-file-database';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { createRequestContext } from '@/server/trpc/context';
import { decideAsMember, proposalForMember } from '@/server/proposals/member-review';
import { MAX_IMPORT_BODY_BYTES } from '@/server/posts/post-import.schemas';
import { handleMcp } from './endpoint';
import { handleMcpSetup } from './setup';
import { toolNameOf } from './tools';

const outcomes = checkDocumentedOutcomes();
let a: TestServer;
let b: TestServer;
let api: ApiCall;
let runner: LocalRunner;
const clients: Client[] = [];

beforeAll(async () => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
  const routes = { '/public/v1/mcp/setup': handleMcpSetup, '/public/v1/mcp': handleMcp, '/public/v1': outcomes.handle };
  // Two servers: two app instances sharing one database.
  a = await startTestServer(routes);
  b = await startTestServer(routes);
  api = apiClient(a.url);
  runner = await startLocalRunner({ connectionString: testDatabaseUrl(), definitions: runnableJobs, concurrency: 4, pollIntervalMs: 100 });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await runner.stop();
  await closeJobs();
  await a.close();
  await b.close();
  vi.unstubAllEnvs();
});

/** A session over every toolset unless told otherwise: these tests exercise the whole surface. */
async function connect(secret: string, opts: { server?: TestServer; headers?: Record<string, string>; toolsets?: string } = {}) {
  const client = new Client({ name: 'herald-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`/public/v1/mcp?toolsets=${opts.toolsets ?? 'all'}`, (opts.server ?? a).url), {
    requestInit: { headers: { Authorization: `Bearer ${secret}`, ...opts.headers } },
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

type Structured = Record<string, any>;
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  // Errors come as JSON text (no structuredContent: the output schema describes successes).
  if (result.isError) {
    expect(result.structuredContent).toBeUndefined();
    return { result, body: JSON.parse((result.content[0] as { text: string }).text) as Structured };
  }
  return { result, body: (result.structuredContent ?? {}) as Structured };
}

async function staffOf(workspaceId: string) {
  const user = await db.user.create({ data: { email: `member-${randomUUID()}@example.com`, name: 'Member' } });
  await db.membership.create({ data: { userId: user.id, workspaceId, role: 'owner' } });
  return createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id }));
}

async function until<T>(what: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function rawPost(url: string, body: unknown, headers: Record<string, string>) {
  return fetch(new URL('/public/v1/mcp', url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

describe('sessions', () => {
  it('initializes with a session id kept in the database, answers on any instance, and ends on DELETE', async () => {
    const { secret, workspace } = await createWorkspaceWithKey();
    const { client, transport } = await connect(secret);
    expect(client.getServerVersion()?.name).toBe('herald');
    const sessionId = transport.sessionId!;
    const row = await db.mcpSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row).toMatchObject({ workspaceId: workspace.id, clientName: 'herald-test', endedAt: null });
    expect(row.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // The same session, served by the other instance.
    const list = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };
    const headers = { Authorization: `Bearer ${secret}`, 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': row.protocolVersion };
    const onB = await rawPost(b.url, list, headers);
    expect(onB.status).toBe(200);
    expect(((await onB.json()) as Structured).result.tools.length).toBeGreaterThan(10);

    await transport.terminateSession();
    expect((await db.mcpSession.findUniqueOrThrow({ where: { id: sessionId } })).endedAt).not.toBeNull();
    expect((await rawPost(b.url, list, headers)).status).toBe(404);
    expect((await rawPost(a.url, list, { ...headers, 'Mcp-Session-Id': randomUUID() })).status).toBe(404);
    const { 'Mcp-Session-Id': _omit, ...noSession } = headers;
    expect((await rawPost(a.url, list, noSession)).status).toBe(400);
  });

  // The POST rules of Streamable HTTP (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports),
  // with the statuses and messages of the SDK's own server transport: Herald answers POSTs
  // itself (json-exchange.ts), so these are checked here rather than trusted to it.
  it('refuses what Streamable HTTP refuses, accepts notifications with 202 and answers a batch in order', async () => {
    const { secret } = await createWorkspaceWithKey();
    const { transport } = await connect(secret);
    const session = { Authorization: `Bearer ${secret}`, 'Mcp-Session-Id': transport.sessionId!, 'Mcp-Protocol-Version': '2025-06-18' };
    const list = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} };
    const refused = async (res: Response, status: number, code: number, message: RegExp) => {
      expect(res.status).toBe(status);
      const body = (await res.json()) as Structured;
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
      expect(body.error.message).toMatch(message);
    };
    await refused(await rawPost(a.url, list, { ...session, Accept: 'application/json' }), 406, -32000, /must accept both/);
    await refused(await rawPost(a.url, list, { ...session, 'Content-Type': 'text/plain; a=application/json' }), 415, -32000, /application\/json/);
    await refused(await rawPost(a.url, list, { ...session, 'Mcp-Protocol-Version': '1999-01-01' }), 400, -32000, /Unsupported protocol version: 1999-01-01/);
    await refused(await rawPost(a.url, { jsonrpc: '1.0', id: 1, method: 'tools/list' }, session), 400, -32700, /Invalid JSON-RPC message/);
    await refused(
      await rawPost(
        a.url,
        Array.from({ length: 101 }, (_, i) => ({ ...list, id: i })),
        session,
      ),
      400,
      -32600,
      /Batch must not exceed 100/,
    );
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    await refused(await rawPost(a.url, [init, list], { Authorization: `Bearer ${secret}` }), 400, -32600, /Only one initialization request/);

    // Over the body limit: 413 in the same envelope, after the key check.
    const huge = { ...list, params: { padding: 'x'.repeat(1024 * 1024) } };
    await refused(await rawPost(a.url, huge, session), 413, -32000, /at most 1048576 bytes/);
    expect((await rawPost(a.url, huge, {})).status).toBe(401);

    const notified = await rawPost(a.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    expect(notified.status).toBe(202);
    expect(await notified.text()).toBe('');

    const batch = await rawPost(
      a.url,
      [
        { ...list, id: 'first' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'second', method: 'ping' },
      ],
      session,
    );
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as Structured[];
    expect(answers.map((m) => m.id)).toEqual(['first', 'second']);
    expect(answers[0]!.result.tools.length).toBeGreaterThan(10);
    expect(answers[1]!.result).toEqual({});
  });

  it('takes a file over the general body limit for the import tools only, as REST does', async () => {
    const { secret } = await createWorkspaceWithKey();
    const { client, transport } = await connect(secret);
    const session = { Authorization: `Bearer ${secret}`, 'Mcp-Session-Id': transport.sessionId!, 'Mcp-Protocol-Version': '2025-06-18' };
    // About 1.3 MB: over the 1 MiB every other route keeps, under the import routes' limit.
    const rows = Array.from({ length: 500 }, (_, i) => `"Post ${i}: ${'a long and thoughtful paragraph about coffee '.repeat(55)}",linkedin:nobody,`);
    const file = `content,accounts,scheduledAt\r\n${rows.join('\r\n')}\r\n`;
    expect(file.length).toBeGreaterThan(1024 * 1024);
    const { result, body } = await call(client, 'posts_import_preview', { format: 'csv', content: file });
    expect(result.isError).toBeFalsy();
    expect(body.data.totals.rows).toBe(500);

    const tooLarge = async (message: unknown) => {
      const res = await rawPost(a.url, message, session);
      expect(res.status).toBe(413);
      expect(((await res.json()) as Structured).error.message).toBe(
        `Payload too large: the request body may be at most 1048576 bytes (${MAX_IMPORT_BODY_BYTES} for posts_import_preview and posts_import)`,
      );
    };
    const callOf = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name, arguments: args } });
    // Any other tool, or any other message, keeps the general limit.
    await tooLarge(callOf('posts_create', { content: file, connectionIds: [randomUUID()] }));
    await tooLarge({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { padding: file } });
    await tooLarge([callOf('posts_import_preview', { format: 'csv', content: file }), { jsonrpc: '2.0', id: 7, method: 'ping' }]);
  });

  it('opens no session for a malformed initialize', async () => {
    const { secret, workspace } = await createWorkspaceWithKey();
    const res = await rawPost(a.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } }, { Authorization: `Bearer ${secret}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Structured).error.code).toBe(-32600);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await db.mcpSession.count({ where: { workspaceId: workspace.id } })).toBe(0);
  });

  it('refuses a session of another key as unknown', async () => {
    const one = await createWorkspaceWithKey();
    const other = await createWorkspaceWithKey();
    const { transport } = await connect(one.secret);
    const res = await rawPost(
      a.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { Authorization: `Bearer ${other.secret}`, 'Mcp-Session-Id': transport.sessionId! },
    );
    expect(res.status).toBe(404);
  });

  it('answers a missing or bad key with the REST 401 body', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const mcp = await rawPost(a.url, init, {});
    const rest = await api('GET', '/posts', {});
    expect(mcp.status).toBe(401);
    expect(await mcp.json()).toEqual(rest.body);
    const bad = await rawPost(a.url, init, { Authorization: 'Bearer sk_live_nope' });
    expect(bad.status).toBe(401);
  });

  it('applies the workspace header rules of REST', async () => {
    const agency = await createWorkspaceWithKey();
    const client = await createWorkspace({ managedById: agency.workspace.id });
    const stranger = await createWorkspace();
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const foreign = await rawPost(a.url, init, { Authorization: `Bearer ${agency.secret}`, [HEADERS.workspace]: stranger.id });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as Structured).error.code).toBe('WORKSPACE_NOT_MANAGED');

    const { client: mcp, transport } = await connect(agency.secret, { headers: { [HEADERS.workspace]: client.id } });
    expect((await db.mcpSession.findUniqueOrThrow({ where: { id: transport.sessionId! } })).workspaceId).toBe(client.id);
    const { body } = await call(mcp, 'posts_create', { content: 'for the client', connectionIds: [randomUUID()] });
    expect(body.error.code).toBe('CONNECTION_NOT_FOUND');
    // /workspaces/* refuse the header, over the tool endpoint as over REST.
    const { result, body: refused } = await call(mcp, 'workspaces_list');
    expect(result.isError).toBe(true);
    expect(refused.error.code).toBe('WORKSPACE_HEADER_NOT_ALLOWED');
  });
});

describe('tools', () => {
  it('writes a result as JSON.stringify would, its text block the structured content’s JSON', async () => {
    const { secret, ok } = await publishingWorkspace();
    const { client, transport } = await connect(secret);
    // Text JSON escapes: quotes, a backslash, a newline, letters outside ASCII.
    for (const n of [1, 2, 3]) await call(client, 'posts_create', { content: `post "${n}" \\ ünïcode 🚀\n`, connectionIds: [ok.linkedin.id] });
    const headers = { Authorization: `Bearer ${secret}`, 'Mcp-Session-Id': transport.sessionId!, 'Mcp-Protocol-Version': '2025-06-18' };
    const listCall = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'posts_list', arguments: { limit: 50 } } });
    for (const body of [listCall(9), [listCall('a'), listCall('b')]]) {
      const raw = await (await rawPost(a.url, body, headers)).text();
      const parsed = JSON.parse(raw) as Structured | Structured[];
      // Byte for byte what serializing the parsed answer gives.
      expect(raw).toBe(JSON.stringify(parsed));
      for (const answer of Array.isArray(parsed) ? parsed : [parsed]) {
        expect(answer.result.structuredContent.data).toHaveLength(3);
        expect(JSON.parse(answer.result.content[0].text)).toEqual(answer.result.structuredContent);
      }
    }
  });

  it('has one tool per REST route, with schemas, annotations and descriptions', async () => {
    const { secret } = await createWorkspaceWithKey();
    const { client } = await connect(secret);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    // Every route this deployment has on (a route behind an unset flag is no tool either).
    expect(names).toEqual(
      restRoutes()
        .filter((r) => r.meta.enabled?.() ?? true)
        .map((r) => toolNameOf(r.procedure))
        .sort(),
    );
    expect(names).toEqual(expect.arrayContaining(['analytics_metrics_daily', 'crawl_changes', 'best_times_get']));
    const create = tools.find((t) => t.name === 'posts_create')!;
    expect(create.inputSchema.properties).toHaveProperty('content');
    expect(create.inputSchema.properties).toHaveProperty('idempotencyKey');
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['content', 'connectionIds']));
    expect(create.description).toMatch(/scheduledAt/);
    // Output schemas are a resource read away, not in every listing.
    expect(create.outputSchema).toBeUndefined();
    const output = await client.readResource({ uri: 'herald://tools/posts_create/output-schema' });
    expect(JSON.parse((output.contents[0] as { text: string }).text).anyOf).toHaveLength(2);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['herald://tools/{name}/output-schema']);
    // Annotations say only what differs from MCP's defaults (not read-only, destructive, not idempotent, open-world).
    expect(tools.find((t) => t.name === 'posts_list')!.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(tools.find((t) => t.name === 'posts_cancel')!.annotations).toEqual({ idempotentHint: true, openWorldHint: false });
    expect(tools.find((t) => t.name === 'posts_create')!.annotations).toEqual({ destructiveHint: false, openWorldHint: false });
  });

  it('lists only what the key’s scopes allow, and refuses the rest with SCOPE_MISSING', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    const { client } = await connect(secret);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['posts_list', 'posts_get', 'posts_targets', 'proposals_list']));
    expect(names).not.toContain('posts_create');
    expect(names).not.toContain('webhooks_list');
    const { result, body } = await call(client, 'posts_create', { content: 'x', connectionIds: [randomUUID()], scheduledAt: inMinutes(30) });
    expect(result.isError).toBe(true);
    expect(body.error.code).toBe('SCOPE_MISSING');
    expect(await db.assistantProposal.count({ where: { toolName: 'posts_create', arguments: { path: ['content'], equals: 'x' } } })).toBe(0);
  });

  it('reads and drafts at once, with the same bodies and errors as REST', async () => {
    const w = await publishingWorkspace();
    const { client } = await connect(w.secret);
    const { body: connections } = await call(client, 'connections_list');
    const rest = await api('GET', '/connections', { key: w.secret });
    expect(connections).toEqual(rest.body);

    const { result, body: created } = await call(client, 'posts_create', { content: 'A draft from an assistant', connectionIds: [w.ok.linkedin.id] });
    expect(result.isError).toBeFalsy();
    expect(created.data).toMatchObject({ status: 'draft', content: 'A draft from an assistant' });
    expect(created.warnings).toEqual([]);
    const { body: read } = await call(client, 'posts_get', { id: created.data.id });
    expect(read).toEqual((await api('GET', `/posts/${created.data.id}`, { key: w.secret })).body);

    const missing = await call(client, 'posts_get', { id: randomUUID() });
    const restMissing = await api('GET', `/posts/${randomUUID()}`, { key: w.secret });
    expect(missing.result.isError).toBe(true);
    // REST's error, and what to do next.
    const { hint, ...error } = missing.body.error;
    expect(error).toEqual(restMissing.body.error);
    expect(hint).toMatch(/posts_list/);

    const tooLong = await call(client, 'posts_create', { content: 'x'.repeat(400), connectionIds: [w.ok.twitter.id] });
    expect(tooLong.body.error.code).toBe('CONTENT_TOO_LONG');
    const invalid = await call(client, 'posts_create', { content: 'x' });
    expect(invalid.result.isError).toBe(true);
    expect(invalid.body.error.code).toBe('BAD_REQUEST');
    expect(invalid.body.error.message).toMatch(/connectionIds is required/);
  });

  it('calls every tool: each answers a result or a catalogue error, never an internal one', async () => {
    const w = await publishingWorkspace();
    const { client } = await connect(w.secret);
    const id = randomUUID();
    const args: Record<string, Record<string, unknown>> = {
      workspaces_create: { name: 'Client via tool' },
      posts_create: { content: 'every tool', connectionIds: [w.ok.linkedin.id] },
      posts_update: { id, content: 'x' },
      media_upload_url: { filename: 'a.png', contentType: 'image/png', bytes: 10 },
      webhooks_create: { name: 'n', url: 'https://example.com/hook', events: ['post.published'] },
      webhooks_redeliver: { id, deliveryId: id },
      webhooks_recover: { id, since: new Date(Date.now() - 3_600_000).toISOString() },
      workspaces_mint_key: { id, name: 'k' },
    };
    for (const route of restRoutes()) {
      const name = toolNameOf(route.procedure);
      const input = args[name] ?? (route.pathParams.includes('id') ? { id } : {});
      const { result, body } = await call(client, name, input);
      if (result.isError) expect(body.error.code, name).not.toMatch(/INTERNAL_ERROR|SERVICE_UNAVAILABLE/);
      else expect(result.content.length, name).toBeGreaterThan(0);
    }
  });

  it('shares the workspace’s rate limit with REST', async () => {
    const { secret } = await createWorkspaceWithKey();
    const { client } = await connect(secret);
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '3');
    try {
      expect((await api('GET', '/connections', { key: secret })).status).toBe(200);
      expect((await call(client, 'connections_list')).result.isError).toBeFalsy();
      expect((await api('GET', '/connections', { key: secret })).status).toBe(200);
      const limited = await call(client, 'connections_list');
      expect(limited.result.isError).toBe(true);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(limited.body.error.retryAfter).toBeGreaterThanOrEqual(1);
      expect((await api('GET', '/connections', { key: secret })).status).toBe(429);
    } finally {
      vi.stubEnv('RATE_LIMIT_PER_MINUTE', '600');
    }
  });

  it('replays a write with the same idempotencyKey argument or header', async () => {
    const w = await publishingWorkspace();
    const { client } = await connect(w.secret);
    const args = { content: 'once', connectionIds: [w.ok.linkedin.id], idempotencyKey: `tool-${randomUUID()}` };
    const first = await call(client, 'posts_create', args);
    const again = await call(client, 'posts_create', args);
    expect(again.body.data.id).toBe(first.body.data.id);
    const conflict = await call(client, 'posts_create', { ...args, content: 'different' });
    expect(conflict.body.error.code).toBe('IDEMPOTENCY_KEY_CONFLICT');

    const key = `hdr-${randomUUID()}`;
    const { client: withHeader } = await connect(w.secret, { headers: { 'Idempotency-Key': key } });
    const h1 = await call(withHeader, 'posts_create', { content: 'by header', connectionIds: [w.ok.linkedin.id] });
    const h2 = await call(withHeader, 'posts_create', { content: 'by header', connectionIds: [w.ok.linkedin.id] });
    expect(h2.body.data.id).toBe(h1.body.data.id);
  });

  it('offers prompts and resources', async () => {
    const w = await publishingWorkspace();
    const { client } = await connect(w.secret);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['draft_week', 'why_did_this_post_fail']);
    const prompt = await client.getPrompt({ name: 'why_did_this_post_fail', arguments: { postId: 'p-1' } });
    expect(JSON.stringify(prompt.messages)).toMatch(/posts_targets/);
    const connections = await client.readResource({ uri: 'herald://workspace/connections' });
    expect(JSON.parse((connections.contents[0] as { text: string }).text).data.length).toBeGreaterThan(0);
    const errors = await client.readResource({ uri: 'herald://errors' });
    expect((errors.contents[0] as { text: string }).text).toMatch(/POST_NOT_FOUND/);
  });
});

describe('staged actions', () => {
  it('stages a schedule, a member confirms it, and it runs once under the original key', async () => {
    const w = await publishingWorkspace();
    const staff = await staffOf(w.workspace.id);
    const { client } = await connect(w.secret);
    const scheduledAt = inMinutes(60);
    const { result, body } = await call(client, 'posts_create', { content: 'Launch day', connectionIds: [w.ok.linkedin.id, w.ok.twitter.id], scheduledAt });
    expect(result.isError).toBeFalsy();
    expect(body.staged).toMatchObject({ status: 'staged', toolName: 'posts_create', title: expect.stringContaining('Schedule a post to 2 account(s)') });
    expect((result.content[0] as { text: string }).text).toMatch(/awaits a member's confirmation/);
    expect(await db.post.count({ where: { workspaceId: w.workspace.id } })).toBe(0);
    const actionId = body.staged.actionId as string;
    expect(await db.outboxEvent.count({ where: { type: 'proposal.staged', data: { path: ['actionId'], equals: actionId } } })).toBe(1);

    const { body: followUp } = await call(client, 'proposals_get', { id: actionId });
    // Who staged it is named for the member reading the list.
    const keyName = (await db.apiKey.findFirstOrThrow({ where: { workspaceId: w.workspace.id }, select: { name: true } })).name;
    expect(followUp.data).toMatchObject({ status: 'staged', arguments: { content: 'Launch day', scheduledAt }, keyName, decidedByName: null });
    expect((await staff.app.shell()).data.counts.stagedProposals).toBe(1);

    // A key can never confirm its own staged call.
    const restConfirm = await api('POST', `/proposals/${actionId}/confirm`, { key: w.secret, body: {} });
    expect(restConfirm.status).toBe(404);

    const confirmed = await staff.proposals.confirm({ id: actionId });
    expect(confirmed.data.status).toBe('confirmed');
    await staff.proposals.confirm({ id: actionId }); // a second click changes nothing
    const done = await until(async () => {
      const p = await db.assistantProposal.findUniqueOrThrow({ where: { id: actionId } });
      return p.status === 'executed' ? p : undefined;
    });
    const posts = await db.post.findMany({ where: { workspaceId: w.workspace.id } });
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ status: 'scheduled', content: 'Launch day' });
    expect((done.outcome as Structured).result.data.id).toBe(posts[0]!.id);
    await until(() => db.outboxEvent.count({ where: { type: 'proposal.confirmed', data: { path: ['actionId'], equals: actionId } } }));

    // Running the job again (a retried or duplicated job) acts no more.
    const { executeProposal } = await import('./execute-proposal');
    await db.assistantProposal.update({ where: { id: actionId }, data: { status: 'confirmed' } });
    await executeProposal(actionId);
    expect(await db.post.count({ where: { workspaceId: w.workspace.id } })).toBe(1);
  });

  it('records a decline, and expiry, and runs neither', async () => {
    const w = await publishingWorkspace();
    const staff = await staffOf(w.workspace.id);
    const { client } = await connect(w.secret);
    const draft = await call(client, 'posts_create', { content: 'draft', connectionIds: [w.ok.linkedin.id] });
    const publish = await call(client, 'posts_publish', { id: draft.body.data.id });
    const declined = await staff.proposals.decline({ id: publish.body.staged.actionId, reason: 'Not today' });
    expect(declined.data).toMatchObject({ status: 'declined', declineReason: 'Not today' });
    await expect(staff.proposals.confirm({ id: publish.body.staged.actionId })).rejects.toMatchObject({ message: expect.stringMatching(/declined/) });

    const cancel = await call(client, 'posts_cancel', { id: draft.body.data.id });
    await db.assistantProposal.update({ where: { id: cancel.body.staged.actionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call(client, 'proposals_get', { id: cancel.body.staged.actionId })).body.data.status).toBe('expired');
    expect((await db.post.findUniqueOrThrow({ where: { id: draft.body.data.id } })).status).toBe('draft');
  });

  it('runs at once when the workspace or the key turns confirmation off', async () => {
    const w = await publishingWorkspace();
    const staff = await staffOf(w.workspace.id);
    const { client } = await connect(w.secret);
    await staff.proposals.setPolicy({ workspaceConfirmation: false });
    const now = await call(client, 'posts_create', { content: 'no waiting', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) });
    expect(now.body.data).toMatchObject({ status: 'scheduled' });

    await staff.proposals.setPolicy({ workspaceConfirmation: true });
    const key = await db.apiKey.findFirstOrThrow({ where: { workspaceId: w.workspace.id } });
    await staff.proposals.setPolicy({ key: { id: key.id, confirmation: false } });
    const byKey = await call(client, 'posts_create', { content: 'key says go', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) });
    expect(byKey.body.data).toMatchObject({ status: 'scheduled' });
    const policy = await staff.proposals.policy();
    expect(policy.data.keys.find((k) => k.id === key.id)?.confirmation).toBe(false);
  });

  it('shows a staged key mint’s secret once, to the key that staged it', async () => {
    const agency = await createWorkspaceWithKey();
    const managed = await createWorkspace({ managedById: agency.workspace.id });
    const staff = await staffOf(agency.workspace.id);
    const { client } = await connect(agency.secret);
    const staged = await call(client, 'workspaces_mint_key', { id: managed.id, name: 'assistant minted' });
    const actionId = staged.body.staged.actionId as string;
    await staff.proposals.confirm({ id: actionId });
    const done = await until(async () => {
      const p = await db.assistantProposal.findUniqueOrThrow({ where: { id: actionId } });
      return p.status === 'executed' ? p : undefined;
    });
    expect((done.outcome as Structured).result.data.secret).toBeNull();
    const first = await call(client, 'proposals_get', { id: actionId });
    const secret = first.body.data.outcome.result.data.secret as string;
    expect(secret).toMatch(/^sk_live_/);
    expect(JSON.stringify(done)).not.toContain(secret);
    // The minted key works.
    expect((await api('GET', '/posts', { key: secret })).status).toBe(200);
    const second = await call(client, 'proposals_get', { id: actionId });
    expect(second.body.data.outcome.result.data.secret).toBeNull();
  });

  it('keeps one workspace’s staged actions from another', async () => {
    const one = await publishingWorkspace();
    const other = await createWorkspaceWithKey();
    const { client } = await connect(one.secret);
    const draft = await call(client, 'posts_create', { content: 'mine', connectionIds: [one.ok.linkedin.id] });
    const staged = await call(client, 'posts_cancel', { id: draft.body.data.id });
    const { client: otherClient } = await connect(other.secret);
    expect((await call(otherClient, 'proposals_get', { id: staged.body.staged.actionId })).body.error.code).toBe('PROPOSAL_NOT_FOUND');
    expect((await call(otherClient, 'proposals_list')).body.data).toEqual([]);
    const otherStaff = await staffOf(other.workspace.id);
    await expect(otherStaff.proposals.confirm({ id: staged.body.staged.actionId })).rejects.toMatchObject({
      message: expect.stringMatching(/No staged action/),
    });
  });

  it('the confirmation link finds the action’s workspace for its member, and only for them', async () => {
    const w = await publishingWorkspace();
    const { client } = await connect(w.secret);
    const draft = await call(client, 'posts_create', { content: 'to cancel', connectionIds: [w.ok.linkedin.id] });
    const staged = await call(client, 'posts_cancel', { id: draft.body.data.id });
    const actionId = staged.body.staged.actionId as string;
    const member = await db.user.create({ data: { email: `m-${randomUUID()}@example.com` } });
    await db.membership.create({ data: { userId: member.id, workspaceId: w.workspace.id, role: 'member' } });
    const stranger = await db.user.create({ data: { email: `s-${randomUUID()}@example.com` } });
    await db.membership.create({ data: { userId: stranger.id, workspaceId: (await createWorkspace()).id, role: 'owner' } });

    const seen = await proposalForMember(member.id, actionId);
    expect(seen.workspace.id).toBe(w.workspace.id);
    expect(seen.proposal).toMatchObject({ status: 'staged', toolName: 'posts_cancel' });
    for (const id of [actionId, randomUUID(), 'not-a-uuid']) {
      await expect(proposalForMember(stranger.id, id)).rejects.toMatchObject({ code: 'PROPOSAL_NOT_FOUND' });
    }
    await expect(decideAsMember(stranger.id, { id: actionId, decision: 'confirm' })).rejects.toMatchObject({ code: 'PROPOSAL_NOT_FOUND' });
    await expect(decideAsMember(member.id, { id: actionId, decision: 'decline', reason: 'x'.repeat(501) })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'reason',
    });
    await db.user.update({ where: { id: member.id }, data: { name: 'Mira Member' } });
    const declined = await decideAsMember(member.id, { id: actionId, decision: 'decline', reason: 'Not this week' });
    expect(declined).toMatchObject({ status: 'declined', declineReason: 'Not this week', decidedBy: member.id, decidedByName: 'Mira Member' });
    await expect(decideAsMember(member.id, { id: actionId, decision: 'confirm' })).rejects.toMatchObject({ code: 'PROPOSAL_NOT_PENDING' });
  });
});

describe('session events', () => {
  it('announces on the session’s stream, served by another instance, when a post created in it finished publishing', async () => {
    const w = await publishingWorkspace();
    const { client } = await connect(w.secret, { server: b });
    const messages: Structured[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params.data as Structured));
    const { body } = await call(client, 'posts_create', { content: 'tell me when it is out', connectionIds: [w.ok.linkedin.id, w.ok.facebook.id] });
    const postId = body.data.id as string;
    // Give the client's GET stream a moment to open, then publish through REST on the other instance.
    await new Promise((r) => setTimeout(r, 300));
    const published = await api('POST', `/posts/${postId}/publish`, { key: w.secret, body: {} });
    expect(published.status).toBe(201);
    const note = await until(async () => messages.find((m) => m.postId === postId));
    expect(note).toEqual({ event: 'post.finished', postId, status: 'published' });
    await new Promise((r) => setTimeout(r, 300));
    expect(messages.filter((m) => m.postId === postId)).toHaveLength(1);
  });
});

describe('setup', () => {
  it('gives snippets for the common clients with this deployment’s URL, as JSON and as a page', async () => {
    const res = await fetch(new URL('/public/v1/mcp/setup', a.url));
    const body = (await res.json()) as Structured;
    expect(body.data.url).toMatch(/\/public\/v1\/mcp$/);
    expect(body.data.clients.map((c: Structured) => c.client)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Claude\.ai/),
        expect.stringMatching(/^ChatGPT/),
        'Claude Code',
        'Cursor',
        'VS Code',
        expect.stringMatching(/mcp-remote/),
      ]),
    );
    for (const c of body.data.clients) expect(c.snippet).toContain(body.data.url);
    // No key is written into a file: OAuth clients get the URL only, key clients read it from
    // a password prompt or the environment.
    for (const c of body.data.clients) {
      if (c.signIn === 'oauth') expect(c.snippet).not.toMatch(/sk_live|Authorization/);
      if (c.format === 'json') expect(c.snippet).not.toMatch(/Bearer sk_live_/);
    }
    const page = await fetch(new URL('/public/v1/mcp/setup', a.url), { headers: { Accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toMatch(/Connect an assistant to Herald/);
    expect(html).toMatch(/Choosing toolsets[^]*\/public\/v1\/mcp\?toolsets=publishing,inbox[^]*X-MCP-Toolsets/);

    // How toolsets are chosen, and every snippet with a URL naming them.
    expect(body.data.toolsets).toMatchObject({ param: 'toolsets', header: 'X-MCP-Toolsets', default: ['publishing'], chosen: ['publishing'] });
    expect(body.data.toolsets.available.map((t: Structured) => t.name)).toEqual(['publishing', 'automation', 'analytics', 'inbox', 'admin']);
    const chosen = (await (await fetch(new URL('/public/v1/mcp/setup?toolsets=inbox,publishing', a.url))).json()) as Structured;
    expect(chosen.data.url).toMatch(/\/public\/v1\/mcp\?toolsets=publishing,inbox$/);
    for (const c of chosen.data.clients) expect(c.snippet).toContain(chosen.data.url);
    // Quoted for the shell, where zsh would glob the `?`.
    expect(chosen.data.clients.find((c: Structured) => c.client === 'Claude Code').snippet).toMatch(/herald '.*\?toolsets=publishing,inbox'$/);
    const unknown = await fetch(new URL('/public/v1/mcp/setup?toolsets=billing', a.url));
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as Structured).error.message).toMatch(/Unknown toolset "billing"/);
  });
});

it('a key of one workspace never reaches another’s data through tools', async () => {
  const one = await publishingWorkspace();
  const other = await createWorkspaceWithKey();
  const second = await createKey(other.workspace.id);
  const post = await api('POST', '/posts', { key: one.secret, body: { content: 'private', connectionIds: [one.ok.linkedin.id] } });
  const { client } = await connect(second.secret);
  expect((await call(client, 'posts_get', { id: post.body.data.id })).body.error.code).toBe('POST_NOT_FOUND');
  expect((await call(client, 'posts_list')).body.data).toEqual([]);
});

it('runs a workflow through the tools and reports its outcome', async () => {
  const w = await publishingWorkspace();
  const { client } = await connect(w.secret);
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(['workflows_list', 'workflows_run', 'workflows_get_run']));
  const started = await call(client, 'workflows_run', { id: 'weekly-digest', days: 3 });
  expect(started.body.data).toMatchObject({ workflowId: 'weekly-digest', status: 'queued' });
  const run = await until(async () => {
    const { body } = await call(client, 'workflows_get_run', { runId: started.body.data.runId });
    return body.data.status === 'completed' ? body.data : undefined;
  });
  expect(run.summary.posts).toEqual({ total: 0, byStatus: {} });
  await until(() => db.outboxEvent.count({ where: { type: 'workflow.run.completed', data: { path: ['runId'], equals: run.runId } } }));
});
