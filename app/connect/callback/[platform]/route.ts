// Where a platform sends the browser back after consent (server/http/client-link-handler.ts).
import { handleConnectCallback } from '@/server/http/client-link-handler';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = (req: Request) => handleConnectCallback(req);
