// The machine-readable contract, generated from the router (no key needed).
import { getOpenApiDocument } from '@/server/http/openapi';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function GET(): Response {
  return Response.json(getOpenApiDocument(), { headers: { 'Cache-Control': 'public, max-age=300' } });
}
