// Toolsets, through the protocol SDK's own client over real HTTP: every tool in exactly one
// toolset, the default listing held to its budget whatever is added later, a chosen toolset
// listing only its tools, a tool of another toolset refused by name and never run, an
// unknown toolset refused at initialize, and the choice sticking to the session.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SCOPES } from '@/server/auth/scopes';
import { db } from '@/server/db/client';
import { restRoutes } from '@/server/http/rest-routes';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { handleMcp } from './endpoint';
import { TOOLS_LIST_BUDGET_KB, toolNameOf } from './tools';
import { DEFAULT_TOOLSETS, DEFAULT_TOOLSETS_BUDGET_KB, parseToolsets, TOOLSET_NAMES, TOOLSETS, toolsetOf, type ToolsetName } from './toolsets';

const outcomes = checkDocumentedOutcomes();
let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ '/public/v1/mcp': handleMcp, '/public/v1': outcomes.handle });
  vi.stubEnv('HERALD_BASE_URL', 'https://herald.example.com');
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server.close();
  vi.unstubAllEnvs();
});

type Structured = Record<string, any>;
const endpoint = (query = '') => new URL(`/public/v1/mcp${query}`, server.url);

async function connect(secret: string, query = '', headers: Record<string, string> = {}) {
  const client = new Client({ name: 'toolsets-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(endpoint(query), { requestInit: { headers: { Authorization: `Bearer ${secret}`, ...headers } } });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

async function rawPost(query: string, body: unknown, headers: Record<string, string>) {
  return fetch(endpoint(query), {
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
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

/** tools/list as it goes over the wire (the JSON-RPC response body), for a session opened with `query`: the budget test's measure. */
async function listing(secret: string, query = '') {
  const { transport } = await connect(secret, query);
  const res = await rawPost('', LIST, { Authorization: `Bearer ${secret}`, 'Mcp-Session-Id': transport.sessionId! });
  const text = await res.text();
  const names = ((JSON.parse(text) as Structured).result.tools as Structured[]).map((t) => t.name as string);
  return { names, bytes: Buffer.byteLength(text), sessionId: transport.sessionId! };
}

const enabledTools = () => restRoutes().filter((r) => r.meta.enabled?.() ?? true);
const toolsOf = (names: readonly ToolsetName[]) =>
  enabledTools()
    .map((r) => toolNameOf(r.procedure))
    .filter((t) => names.includes(toolsetOf(t)!))
    .sort();

describe('the toolsets', () => {
  it('hold every tool in exactly one toolset, and nothing that is not a tool', () => {
    const routes = restRoutes().map((r) => toolNameOf(r.procedure));
    const listed = TOOLSET_NAMES.flatMap((n) => TOOLSETS[n].tools);
    // A new route fails here until its tool is given a toolset in server/mcp/toolsets.ts.
    expect(routes.filter((t) => !listed.includes(t)).map((t) => `${t} has no toolset`)).toEqual([]);
    expect(listed.filter((t) => !routes.includes(t)).map((t) => `${t} is not a tool`)).toEqual([]);
    expect(listed.filter((t, i) => listed.indexOf(t) !== i).map((t) => `${t} is in two toolsets`)).toEqual([]);
  });

  it('parse a choice: names, all, default, whitespace and case; an unknown name is an error', () => {
    expect(parseToolsets(' Inbox , publishing,inbox ')).toEqual({ toolsets: ['publishing', 'inbox'] });
    expect(parseToolsets('all')).toEqual({ toolsets: [...TOOLSET_NAMES] });
    expect(parseToolsets('default,analytics')).toEqual({ toolsets: [...DEFAULT_TOOLSETS, 'analytics'] });
    expect(parseToolsets(' , ')).toEqual({ toolsets: null });
    expect(parseToolsets('publishing,inboxx')).toEqual({
      error: expect.stringMatching(/Unknown toolset "inboxx".*publishing, automation, analytics, inbox, admin/),
    });
  });
});

describe('tools/list by toolset', () => {
  it(`lists the default toolsets when nothing is chosen, in at most ${DEFAULT_TOOLSETS_BUDGET_KB} KB`, async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    const { names, bytes } = await listing(secret);
    expect(names.sort()).toEqual(toolsOf(DEFAULT_TOOLSETS));
    // Measured as the budget test measures every tool: the response body of tools/list for a key with every scope.
    expect(bytes).toBeLessThanOrEqual(DEFAULT_TOOLSETS_BUDGET_KB * 1024);
    expect(DEFAULT_TOOLSETS_BUDGET_KB).toBeLessThan(TOOLS_LIST_BUDGET_KB);
  });

  it('lists only the chosen toolsets: ?toolsets=inbox only inbox tools, all every tool', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    const inbox = await listing(secret, '?toolsets=inbox');
    expect(inbox.names.sort()).toEqual([...TOOLSETS.inbox.tools].sort());
    expect(inbox.names.every((n) => n.startsWith('inbox_'))).toBe(true);
    const two = await listing(secret, '?toolsets=analytics,admin');
    expect(two.names.sort()).toEqual(toolsOf(['analytics', 'admin']));
    const all = await listing(secret, '?toolsets=all');
    expect(all.names.sort()).toEqual(toolsOf(TOOLSET_NAMES));
  });

  it('takes the X-MCP-Toolsets header when the URL names none; the URL wins over it', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    const byHeader = await connect(secret, '', { 'X-MCP-Toolsets': 'analytics' });
    expect((await byHeader.client.listTools()).tools.map((t) => t.name).sort()).toEqual(toolsOf(['analytics']));
    const both = await connect(secret, '?toolsets=inbox', { 'X-MCP-Toolsets': 'analytics' });
    expect((await both.client.listTools()).tools.map((t) => t.name).sort()).toEqual(toolsOf(['inbox']));
  });

  it('applies the key’s scopes on top of the toolsets', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    const { client } = await connect(secret, '?toolsets=inbox');
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['inbox_check', 'inbox_get', 'inbox_list']);
    const refused = await client.callTool({ name: 'inbox_reply', arguments: { id: '00000000-0000-4000-8000-000000000000', text: 'hi' } });
    expect(JSON.parse((refused.content as Array<{ text: string }>)[0]!.text).error.code).toBe('SCOPE_MISSING');
  });
});

describe('calls outside the toolsets', () => {
  it('refuses a tool of another toolset with an error naming it, and does not run it', async () => {
    const { secret, workspace } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    const { client } = await connect(secret, '?toolsets=inbox');
    const err = (await client
      .callTool({ name: 'webhooks_create', arguments: { name: 'n', url: 'https://receiver.example.com/hook', events: ['post.published'] } })
      .catch((e: unknown) => e)) as { code: number; message: string; data: Structured };
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/^MCP error -32602: Tool webhooks_create is in the toolset "admin", which this session did not enable \(it has inbox\)/);
    expect(err.message).toContain('/public/v1/mcp?toolsets=inbox,admin');
    expect(err.message).toMatch(/X-MCP-Toolsets/);
    expect(err.data).toEqual({ toolset: 'admin', enabled: ['inbox'] });
    expect(await db.webhookEndpoint.count({ where: { workspaceId: workspace.id } })).toBe(0);

    // The default session refuses what is outside publishing, and runs what is in it.
    const plain = await connect(secret);
    const outside = (await plain.client.callTool({ name: 'inbox_list', arguments: {} }).catch((e: unknown) => e)) as Error;
    expect(outside.message).toMatch(/Tool inbox_list is in the toolset "inbox".*\?toolsets=publishing,inbox/);
    const inside = await plain.client.callTool({ name: 'posts_list', arguments: {} });
    expect(inside.isError).toBeFalsy();
    // An output schema of a tool outside the toolsets is not served either.
    await expect(plain.client.readResource({ uri: 'herald://tools/inbox_list/output-schema' })).rejects.toThrow(/Unknown resource/);
  });

  it('refuses an unknown toolset at initialize with the toolsets there are, and opens no session', async () => {
    const { secret, key } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    const res = await rawPost('?toolsets=publishing,billing', INIT, { Authorization: `Bearer ${secret}` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Structured;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
    expect(body.error.message).toMatch(/^Unknown toolset "billing": the toolsets are publishing, automation, analytics, inbox, admin \(or all, default\)/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const byHeader = await rawPost('', INIT, { Authorization: `Bearer ${secret}`, 'X-MCP-Toolsets': 'nope' });
    expect(((await byHeader.json()) as Structured).error.message).toMatch(/^Unknown toolset "nope"/);
    // The SDK's client fails to connect, with the message.
    const client = new Client({ name: 'toolsets-test', version: '1.0.0' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(endpoint('?toolsets=billing'), { requestInit: { headers: { Authorization: `Bearer ${secret}` } } })),
    ).rejects.toThrow(/^MCP error -32602: Unknown toolset "billing": the toolsets are/);
    expect(await db.mcpSession.count({ where: { keyId: key.id } })).toBe(0);
    // Still: no key, no answer beyond the 401.
    expect((await rawPost('?toolsets=billing', INIT, {})).status).toBe(401);
  });
});

describe('sessions keep their toolsets', () => {
  it('stores the toolsets chosen at initialize and keeps them whatever later requests’ URLs say', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    const { sessionId } = await listing(secret, '?toolsets=inbox');
    expect((await db.mcpSession.findUniqueOrThrow({ where: { id: sessionId } })).toolsets).toEqual(['inbox']);
    const later = await rawPost('?toolsets=all', LIST, { Authorization: `Bearer ${secret}`, 'Mcp-Session-Id': sessionId, 'X-MCP-Toolsets': 'all' });
    const names = ((await later.json()) as Structured).result.tools.map((t: Structured) => t.name as string);
    expect(names.sort()).toEqual([...TOOLSETS.inbox.tools].sort());
    const call = await rawPost(
      '?toolsets=all',
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'posts_list', arguments: {} } },
      { Authorization: `Bearer ${secret}`, 'Mcp-Session-Id': sessionId },
    );
    expect(((await call.json()) as Structured).error.message).toMatch(/toolset "publishing"/);
  });

  it('opens with the toolsets stored on the key when the URL names none', async () => {
    const { secret, key } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    await db.apiKey.update({ where: { id: key.id }, data: { toolsets: ['analytics', 'inbox'] } });
    expect((await listing(secret)).names.sort()).toEqual(toolsOf(['analytics', 'inbox']));
    expect((await listing(secret, '?toolsets=publishing')).names.sort()).toEqual(toolsOf(['publishing']));
  });
});

describe('docs/mcp.md', () => {
  it('lists each toolset with its tools and its tools/list size as measured, and the default budget', async () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/mcp.md'), 'utf8');
    const { secret } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    const rows = new Map(
      [...doc.matchAll(/^\| `([a-z]+)`(?: \(default\))? +\| ([^|]+?) +\| ([\d.]+) KB +\|$/gm)].map((m) => [m[1]!, { tools: m[2]!, kb: Number(m[3]) }]),
    );
    expect([...rows.keys()]).toEqual([...TOOLSET_NAMES]);
    for (const name of TOOLSET_NAMES) {
      const row = rows.get(name)!;
      expect([...row.tools.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort(), name).toEqual([...TOOLSETS[name].tools].sort());
      const measured = (await listing(secret, `?toolsets=${name}`)).bytes / 1024;
      // Within half a KB of the day's listing: a tool added to a toolset fails here until the table says so.
      expect(Math.abs(row.kb - measured), `${name}: stated ${row.kb} KB, measured ${measured.toFixed(1)} KB`).toBeLessThanOrEqual(0.5);
    }
    expect(doc.replace(/\s+/g, ' ')).toContain(
      `default toolsets (${DEFAULT_TOOLSETS.map((n) => `\`${n}\``).join(', ')}) in at most ${DEFAULT_TOOLSETS_BUDGET_KB} KB`,
    );
  });
});
