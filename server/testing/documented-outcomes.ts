// "Documented errors are what the server answers", checked by the test suite itself: every
// answer the REST tests observe through the shared client (usePublicApi) is looked up in the
// contract document — the operation, its status, and for an error its code — and whatever
// the document does not list is collected; each test file then fails in afterAll, naming
// every (operation, status, code) it saw that the document lacks. Checked in the worker that
// saw the answer, so files running in parallel need no shared state, and a partial run checks
// what it ran. Answers with no route (ROUTE_NOT_FOUND on an unknown path) belong to no
// operation and are not checked.
import { getOpenApiDocument } from '@/server/http/openapi';
import { PUBLIC_API_PREFIX } from '@/server/http/rest-handler';
import { matchRoute } from '@/server/http/rest-routes';

type Json = Record<string, any>;

/** The codes an error response of the document lists (its description is `CODE: when | CODE: when`). */
function documentedCodes(response: Json): string[] {
  return String(response.description ?? '')
    .split(' | ')
    .map((part) => part.split(':', 1)[0]!.trim());
}

/** Why this answer is not in the document, or null when it is. */
export async function undocumentedOutcome(req: Request, res: Response): Promise<string | null> {
  const url = new URL(req.url);
  if (!url.pathname.startsWith(`${PUBLIC_API_PREFIX}/`) || req.method === 'OPTIONS') return null;
  const match = matchRoute(req.method.toUpperCase(), url.pathname.slice(PUBLIC_API_PREFIX.length));
  if (!match) return null;
  const operation = `${match.route.method} ${match.route.path}`;
  const op = (getOpenApiDocument() as unknown as Json).paths?.[match.route.path]?.[match.route.method.toLowerCase()] as Json | undefined;
  if (!op) return `${operation}: not in the document`;
  const response = op.responses?.[String(res.status)] as Json | undefined;
  if (res.status < 400) return response ? null : `${operation} → ${res.status}: status not documented`;
  let body: Json | undefined;
  try {
    body = (await res.clone().json()) as Json;
  } catch {
    body = undefined;
  }
  const code = typeof body?.error === 'object' && body.error ? String(body.error.code) : 'flat';
  if (!response) return `${operation} → ${res.status} ${code}: status not documented`;
  if (code === 'flat') {
    const schema = JSON.stringify(response.content ?? {});
    return /ValidationError|FlatError/.test(schema) ? null : `${operation} → ${res.status} flat body: not documented`;
  }
  return documentedCodes(response).includes(code) ? null : `${operation} → ${res.status} ${code}: code not documented`;
}
