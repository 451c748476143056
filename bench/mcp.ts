// The tool endpoint against the REST route it wraps: posts_list vs GET /posts?limit=50 on the
// same workspace (50 posts with 3 targets each), same process, same database. Prints calls
// per second with CLIENTS concurrent clients and p50/p95 of one client. Target: the tool path
// costs at most 1.3× the REST path. First it prints the size of tools/list for a key with
// every scope (what an assistant reads before its first call): the default toolsets against
// DEFAULT_TOOLSETS_BUDGET_KB (server/mcp/toolsets.ts), each toolset, and `all` against
// TOOLS_LIST_BUDGET_KB (server/mcp/tools.ts).
//   npx tsx bench/mcp.ts            (CALLS=400 CLIENTS=8)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { benchWorkspace, withBenchDatabase } from './bench-database';

const CALLS = Number(process.env.CALLS ?? 400);
const CLIENTS = Number(process.env.CLIENTS ?? 8);
process.env.RATE_LIMIT_PER_MINUTE = '1000000';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

await withBenchDatabase(async () => {
  const { startTestServer } = await import('@/server/testing/api-server');
  const { handlePublicApi } = await import('@/server/http/rest-handler');
  const { handleMcp } = await import('@/server/mcp/endpoint');
  const { createApiKey } = await import('@/server/api-keys/mint-api-key');
  const { SCOPES } = await import('@/server/auth/scopes');
  const { TOOLS_LIST_BUDGET_KB } = await import('@/server/mcp/tools');
  const { DEFAULT_TOOLSETS, DEFAULT_TOOLSETS_BUDGET_KB, TOOLSET_NAMES } = await import('@/server/mcp/toolsets');
  const { createPost } = await import('@/server/posts/create-post');
  const { workspace, connections } = await benchWorkspace([{ platform: 'linkedin', count: 3 }]);
  for (let i = 0; i < 50; i++) await createPost(workspace.id, { content: `post ${i}`, connectionIds: connections.map((c) => c.id) });
  const { secret } = await createApiKey({ workspaceId: workspace.id, name: 'bench', scopes: SCOPES, expiresAt: null });
  const server = await startTestServer({ '/public/v1/mcp': handleMcp, '/public/v1': handlePublicApi });
  const auth = { Authorization: `Bearer ${secret}` };

  const rest = async () => {
    const res = await fetch(`${server.url}/public/v1/posts?limit=50`, { headers: auth });
    if (res.status !== 200) throw new Error(`REST ${res.status}`);
    await res.arrayBuffer();
  };
  const clients: Client[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const client = new Client({ name: 'bench', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL('/public/v1/mcp', server.url), { requestInit: { headers: auth } });
    await client.connect(transport);
    clients.push(client);
  }

  // The listing as it goes over the wire: the JSON-RPC response body, for a session opened with `toolsets`.
  const listingOf = async (toolsets: string) => {
    const client = new Client({ name: 'bench-listing', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`/public/v1/mcp${toolsets ? `?toolsets=${toolsets}` : ''}`, server.url), {
      requestInit: { headers: auth },
    });
    await client.connect(transport);
    const listing = await fetch(`${server.url}/public/v1/mcp`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': transport.sessionId ?? '' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const listed = await listing.text();
    await client.close();
    return { count: (JSON.parse(listed) as { result: { tools: unknown[] } }).result.tools.length, bytes: Buffer.byteLength(listed) };
  };
  const line = (label: string, { count, bytes }: { count: number; bytes: number }, budgetKb?: number) =>
    console.log(
      `tools/list ${label}: ${count} tools, ${(bytes / 1024).toFixed(1)} KB${budgetKb === undefined ? '' : `; budget ≤ ${budgetKb} KB ${bytes <= budgetKb * 1024 ? 'OK' : 'OVER BUDGET'}`}`,
    );
  line(`default (${DEFAULT_TOOLSETS.join(',')})`, await listingOf(''), DEFAULT_TOOLSETS_BUDGET_KB);
  for (const name of TOOLSET_NAMES) line(`toolsets=${name}`, await listingOf(name));
  line('toolsets=all', await listingOf('all'), TOOLS_LIST_BUDGET_KB);
  const tool = (client: Client) => async () => {
    const res = await client.callTool({ name: 'posts_list', arguments: { limit: 50 } });
    if (res.isError) throw new Error(`tool ${JSON.stringify(res.content)}`);
  };

  async function latency(fn: () => Promise<void>) {
    for (let i = 0; i < 20; i++) await fn(); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < CALLS / 2; i++) {
      const t = performance.now();
      await fn();
      samples.push(performance.now() - t);
    }
    return { p50: pct(samples, 0.5), p95: pct(samples, 0.95) };
  }
  async function throughput(fns: Array<() => Promise<void>>) {
    let left = CALLS;
    const t = performance.now();
    await Promise.all(
      fns.map(async (fn) => {
        while (left-- > 0) await fn();
      }),
    );
    return CALLS / ((performance.now() - t) / 1000);
  }

  const restLatency = await latency(rest);
  const toolLatency = await latency(tool(clients[0]!));
  const restRate = await throughput(Array.from({ length: CLIENTS }, () => rest));
  const toolRate = await throughput(clients.map(tool));
  console.log(`posts_list vs GET /posts?limit=50 — 50 posts × 3 targets, ${CALLS} calls, ${CLIENTS} concurrent clients`);
  console.log(`REST : ${restRate.toFixed(0)} req/s; one client p50 ${restLatency.p50.toFixed(1)} ms, p95 ${restLatency.p95.toFixed(1)} ms`);
  console.log(`tool : ${toolRate.toFixed(0)} calls/s; one client p50 ${toolLatency.p50.toFixed(1)} ms, p95 ${toolLatency.p95.toFixed(1)} ms`);
  const cost = restRate / toolRate;
  console.log(
    `tool cost / REST cost (throughput): ${cost.toFixed(2)}×; p50: ${(toolLatency.p50 / restLatency.p50).toFixed(2)}× (target ≤ 1.30) ${cost <= 1.3 ? 'OK' : 'OVER TARGET'}`,
  );
  for (const c of clients) await c.close();
  await server.close();
});
process.exit(0);
