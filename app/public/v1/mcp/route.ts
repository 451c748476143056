// The tool endpoint (JSON-RPC 2.0 over Streamable HTTP): server/mcp/endpoint.ts.
import { handleMcp } from '@/server/mcp/endpoint';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = handleMcp;
export const POST = handleMcp;
export const DELETE = handleMcp;
// CORS preflight for allowed browser origins (server/mcp/origin.ts).
export const OPTIONS = handleMcp;
