// Error bodies of the media routes: the same mapping as the REST API, and a log line for the
// unexpected ones (they would otherwise vanish behind a generic 500).
import { toErrorResponse } from '@/server/errors/http';

export function mediaErrorResponse(err: unknown): Response {
  const mapped = toErrorResponse(err);
  if (mapped.code === 'INTERNAL_ERROR') console.error('[media] unexpected error', err);
  return Response.json(mapped.body, { status: mapped.status, headers: mapped.headers });
}
