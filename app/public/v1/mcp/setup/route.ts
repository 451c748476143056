// Setup snippets for tool clients, no key needed: server/mcp/setup.ts.
import { handleMcpSetup } from '@/server/mcp/setup';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = handleMcpSetup;
