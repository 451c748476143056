// The client report's data and PDF, outside the versioned prefix (server/http/client-link-handler.ts).
import { handleClientLinkApi } from '@/server/http/client-link-handler';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const handle = (req: Request) => handleClientLinkApi(req);
export const GET = handle;
export const POST = handle;
