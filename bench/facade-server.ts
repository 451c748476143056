// Herald's REST facade on a plain node:http server, without Next.js: bench/api-vs-raw.ts
// runs it with HERALD=facade to tell the framework's share of the overhead from Herald's own.
//   DATABASE_URL=… PORT=… npx tsx bench/facade-server.ts
import { handlePublicApi } from '@/server/http/rest-handler';
import { handleMcp } from '@/server/mcp/endpoint';
import { handleMcpSetup } from '@/server/mcp/setup';
import { startTestServer } from '@/server/testing/api-server';

const server = await startTestServer(
  { '/public/v1': handlePublicApi, '/public/v1/mcp': handleMcp, '/public/v1/mcp/setup': handleMcpSetup },
  { port: Number(process.env.PORT ?? 0) },
);
console.log(`facade listening on ${server.url}`);
// A normal exit on SIGINT, so `--cpu-prof` writes its profile.
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
