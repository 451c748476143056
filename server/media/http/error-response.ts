// Error bodies of the media routes: the same mapping as the REST API, and a log line for the
// unexpected ones (they would otherwise vanish behind a generic 500).
import { toErrorResponse } from '@/server/errors/http';
import { log } from '@/server/observability/log';

export function mediaErrorResponse(err: unknown): Response {
  const mapped = toErrorResponse(err);
  if (mapped.code === 'INTERNAL_ERROR') log.error('media', 'unexpected error', err);
  return Response.json(mapped.body, { status: mapped.status, headers: mapped.headers });
}
