import os from 'node:os';
import path from 'node:path';
import { benchWorkspace, withBenchDatabase } from './bench-database';
import { startApp } from './chaos/app-process';
import { closeLoad, request, throughput, type Route } from './http-load';
process.env.RATE_LIMIT_PER_MINUTE = '100000000';
const which = process.env.WHICH ?? 'tool';
await withBenchDatabase(async (url) => {
  const { createApiKey } = await import('@/server/api-keys/mint-api-key');
  const { SCOPES } = await import('@/server/auth/scopes');
  const { createPost } = await import('@/server/posts/create-post');
  const { workspace, connections } = await benchWorkspace([{ platform: 'linkedin', count: 3 }]);
  for (let i = 0; i < 50; i++) await createPost(workspace.id, { content: `post ${i}`, connectionIds: connections.map((c) => c.id) });
  const { secret } = await createApiKey({ workspaceId: workspace.id, name: 'bench', scopes: SCOPES, expiresAt: null });
  const auth = `Bearer ${secret}`;
  const port = 3396;
  const app = await startApp({ hosting: 'herald', port, databaseUrl: url, logFile: path.join(os.tmpdir(), 'zz-prof.log'), env: { RATE_LIMIT_PER_MINUTE: '100000000' }, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}`] });
  let route: Route = { name: 'list', method: 'GET', path: '/public/v1/posts?limit=50', expect: 200 };
  if (which === 'tool') {
    const accept = { accept: 'application/json, text/event-stream' };
    const res = await fetch(`http://127.0.0.1:${port}/public/v1/mcp`, { method: 'POST', headers: { Authorization: auth, 'content-type': 'application/json', ...accept }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }) });
    const headers = { ...accept, 'mcp-session-id': res.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
    route = { name: 'tool', method: 'POST', path: '/public/v1/mcp', headers, expect: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'posts_list', arguments: { limit: 50 } } }) };
  }
  await throughput(port, route, auth, 2);
  const rps = await throughput(port, route, auth, 10);
  console.log(which, 'requests', Math.round(rps * 10), 'rps', rps.toFixed(0));
  await request(port, route, auth);
  await app.stop();
  closeLoad();
});
