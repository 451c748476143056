// Server CPU per request of Herald's API chain alone, in one process, no socket: the handler
// the fast path calls (handlePublicApi) on a Web Request, for GET /posts/{id}, GET /posts
// and POST /posts, and the tool endpoint's (handleMcp) for `tools/call posts_list` with the
// list's arguments, against a real database. It reports process CPU time (user + system)
// per request, which a busy machine inflates far less than it does throughput: use it to
// compare two versions of the chain on the same machine; bench/api-vs-raw.ts is the
// end-to-end measure against the bare server.
//   npx tsx bench/api-chain-cpu.ts   (N=3000 requests per route, CONCURRENCY=20, ONLY=get|list|post|tool)
// Profile: node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/api-chain-cpu.ts
import { randomBytes } from 'node:crypto';
import { benchWorkspace, withBenchDatabase } from './bench-database';

const N = Number(process.env.N ?? 3000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 20);
process.env.RATE_LIMIT_PER_MINUTE = '100000000';

await withBenchDatabase(async () => {
  const { handlePublicApi } = await import('@/server/http/rest-handler');
  const { handleMcp } = await import('@/server/mcp/endpoint');
  const { createKey } = await import('@/server/testing/fixtures');
  const { workspace, connections } = await benchWorkspace([{ platform: 'linkedin', count: 3 }]);
  const { secret } = await createKey(workspace.id);
  const auth = { authorization: `Bearer ${secret}` };
  const base = 'http://localhost:3000/public/v1';

  const make = (content: string) =>
    handlePublicApi(
      new Request(`${base}/posts`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ content, connectionIds: connections.map((c) => c.id) }),
      }),
    );
  const first = await make('bench post');
  const id = ((await first.json()) as { data: { id: string } }).data.id;
  for (let i = 0; i < 60; i++) await make(`bench post ${i}`);

  // A tool session (initialize, then initialized), as an assistant opens one.
  const mcpUrl = `${base}/mcp`;
  const accept = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const opened = await handleMcp(
    new Request(mcpUrl, {
      method: 'POST',
      headers: { ...auth, ...accept },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      }),
    }),
  );
  const session = { ...auth, ...accept, 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-06-18' };
  await handleMcp(new Request(mcpUrl, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }));
  const toolCall = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'posts_list', arguments: { limit: 50 } } });

  const checked = (await (await handleMcp(new Request(mcpUrl, { method: 'POST', headers: session, body: toolCall }))).json()) as {
    result?: { isError?: boolean; structuredContent?: { data?: unknown[] } };
  };
  if (checked.result?.isError || checked.result?.structuredContent?.data?.length !== 50) throw new Error(`the tool call failed: ${JSON.stringify(checked)}`);

  const routes: [string, () => Promise<Response>][] = [
    ['GET /posts/{id}', () => handlePublicApi(new Request(`${base}/posts/${id}`, { headers: auth }))],
    ['GET /posts?limit=50', () => handlePublicApi(new Request(`${base}/posts?limit=50`, { headers: auth }))],
    ['POST /posts (3 targets)', () => make(`bench ${randomBytes(6).toString('hex')}`)],
    ['tools/call posts_list', () => handleMcp(new Request(mcpUrl, { method: 'POST', headers: session, body: toolCall }))],
  ];

  async function run(call: () => Promise<Response>, n: number): Promise<number> {
    let next = 0;
    const started = process.cpuUsage();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < n) {
          const res = await call();
          if (res.status >= 300) throw new Error(`answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
        }
      }),
    );
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000 / n;
  }

  console.log(`CPU per request in one process (ms), ${N} requests per route, ${CONCURRENCY} concurrent; median of 3 runs`);
  // ONLY=get|list|post|tool measures one route (e.g. under --cpu-prof).
  const only = process.env.ONLY ? ['get', 'list', 'post', 'tool'].indexOf(process.env.ONLY) : -1;
  for (const [name, call] of only === -1 ? routes : [routes[only]!]) {
    await run(call, 300); // warm-up
    const runs = [await run(call, N), await run(call, N), await run(call, N)].sort((a, b) => a - b);
    console.log(`${name.padEnd(26)} ${runs[1]!.toFixed(3)} ms  (runs ${runs.map((r) => r.toFixed(3)).join(', ')})`);
  }
});
process.exit(0);
