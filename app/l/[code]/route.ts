// A tracked link's short link (no login): the route table's handler (server/runtime/api-routes.ts),
// which Herald's own server also serves on its fast path. On a serverless host the counted
// clicks are written after the answer is sent (after()), not left in an instance that may freeze.
import { after } from 'next/server';
import { flushClicks } from '@/server/links/follow-link';
import { API_ROUTE_FILES } from '@/server/runtime/api-routes';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export async function GET(req: Request): Promise<Response> {
  const res = await API_ROUTE_FILES.shortLink.GET(req);
  after(flushClicks);
  return res;
}
