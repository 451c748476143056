// Setup snippets for tool clients, no key needed (server/mcp/setup.ts), from the API's route table (server/runtime/api-routes.ts), which Herald's own server
// also serves on its fast path.
import { API_ROUTE_FILES } from '@/server/runtime/api-routes';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET } = API_ROUTE_FILES.mcpSetup;
