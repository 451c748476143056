// The tool endpoint (JSON-RPC 2.0 over Streamable HTTP): server/mcp/endpoint.ts, from the
// API's route table (server/runtime/api-routes.ts).
import { API_ROUTE_FILES } from '@/server/runtime/api-routes';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, DELETE, OPTIONS } = API_ROUTE_FILES.mcp;
