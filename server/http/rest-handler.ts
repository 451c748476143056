// The REST facade: /public/v1/* → the app router's procedures, with the contract's exact
// bodies. Routes come from each procedure's `meta.openapi` (server/http/rest-routes.ts), the
// same meta trpc-to-openapi reads to generate the OpenAPI document.
//
// Why the facade dispatches requests itself instead of trpc-to-openapi's fetch handler:
// that handler "coerces" input by setting `coerce` on the procedure's own zod schemas
// (its coerceSchema), for JSON bodies as well as for query strings, and offers no option to
// turn it off. A body's `"requireApproval": "false"` then became `true`, `"bytes": true`
// became 1, and — the schemas being shared — the same leniency leaked into the app's tRPC
// endpoint. Bodies must be validated exactly as sent; only query and path strings may be
// converted to the types their schema declares, which request-input.ts does without
// mutating any schema. Dispatching is a table lookup and one createCaller call: owning it
// also keeps the Content-Type rule, body size and percent-decoding in this one place.
import { AppError } from '@/server/errors/app-error';
import { toErrorResponse } from '@/server/errors/http';
import { createRequestContext, type RequestContext } from '@/server/trpc/context';
import { MAX_URL_BYTES } from '@/server/shared/http-limits';
import { ORIGINAL_PATH_HEADER } from './percent-encoding';
import { pathInput, queryInput, readJsonBody } from './request-input';
import { callProcedure } from './procedure-call';
import { matchRoute, methodsAt, type RouteMatch } from './rest-routes';
import { bytesResponse, jsonResponse } from './response-bytes';

import { PUBLIC_API_PREFIX } from '@/server/shared/paths';
import { log } from '@/server/observability/log';
import { observeRequest } from '@/server/observability/metrics';
import { withRequestId } from '@/server/observability/request-id';

export { PUBLIC_API_PREFIX };

const routeNotFound = () => new AppError('ROUTE_NOT_FOUND', 'No route at this method and path');

function findRoute(req: Request, url: URL): RouteMatch {
  const { pathname } = url;
  if (pathname !== PUBLIC_API_PREFIX && !pathname.startsWith(`${PUBLIC_API_PREFIX}/`)) throw routeNotFound();
  const match = matchRoute(req.method.toUpperCase(), pathname.slice(PUBLIC_API_PREFIX.length));
  if (!match) throw routeNotFound();
  return match;
}

async function inputOf(req: Request, url: URL, { route, rawParams }: RouteMatch): Promise<unknown> {
  // Path parameters win over same-named body or query fields: the URL names the resource.
  const params = pathInput(rawParams, route.input);
  if (route.takesBody) return { ...(await readJsonBody(req, route.meta.maxBodyBytes)), ...params };
  return { ...queryInput(url.searchParams, route.input), ...params };
}

export function handlePublicApi(req: Request): Promise<Response> {
  return withRequestId(req, async () => {
    const started = performance.now();
    const seen = { route: 'unmatched' };
    const response = await respond(req, seen);
    observeRequest('rest', seen.route, response.status, (performance.now() - started) / 1000);
    return response;
  });
}

async function respond(req: Request, seen: { route: string }): Promise<Response> {
  const ctx: RequestContext = createRequestContext({ transport: 'rest', headers: req.headers });
  try {
    const url = new URL(req.url);
    if (url.pathname.length + url.search.length > MAX_URL_BYTES) {
      throw new AppError('URI_TOO_LONG', `The path and query string may be at most ${MAX_URL_BYTES} bytes`);
    }
    if (req.method.toUpperCase() === 'OPTIONS') return optionsResponse(url);
    const match = findRoute(req, url);
    seen.route = `${match.route.method} ${match.route.path}`;
    const input = await inputOf(req, url, match);
    const data = await callProcedure(ctx, match.route.procedure, input);
    const status = ctx.response.status ?? 200;
    // `z.void()` outputs (deletes answering 204) have nothing to send.
    if (status === 204 || data === undefined) return bytesResponse(null, status, ctx.response.headers);
    if (match.route.meta.produces === 'text/csv') return csvResponse(status, ctx.response.headers, data as { csv: string; filename: string });
    // One buffer with its length: the server sends it in one write instead of streaming it
    // chunked (measured in docs/performance.md).
    return jsonResponse(data, status, ctx.response.headers);
  } catch (err) {
    const mapped = toErrorResponse(err);
    if (mapped.code === 'INTERNAL_ERROR') log.error('rest', 'unexpected error', err);
    // Rate-limit headers set before the failure still describe the budget.
    return jsonResponse(mapped.body, mapped.status, { ...ctx.response.headers, ...mapped.headers });
  }
}

/**
 * `OPTIONS`: 204 with `Allow` naming the methods the route table serves at this path (and
 * OPTIONS itself); a path with no route is no route, as for any other method. Both hostings
 * call this (server/runtime/api-routes.ts), so they advertise the same methods.
 */
function optionsResponse(url: URL): Response {
  const { pathname } = url;
  if (!pathname.startsWith(`${PUBLIC_API_PREFIX}/`)) throw routeNotFound();
  const methods = methodsAt(pathname.slice(PUBLIC_API_PREFIX.length));
  if (!methods.length) throw routeNotFound();
  return new Response(null, { status: 204, headers: { Allow: [...methods, 'OPTIONS'].sort().join(', ') } });
}

/** A route whose meta says it produces CSV: its output's text, as a file, with the rate-limit headers. */
function csvResponse(status: number, headers: Record<string, string>, data: { csv: string; filename: string }): Response {
  return bytesResponse(Buffer.from(data.csv), status, {
    ...headers,
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${data.filename.replace(/[^\w.-]/g, '_')}"`,
  });
}

/**
 * An API request whose path Next.js could not decode, sent here by proxy.ts with the path as
 * written in a header: answered by the facade exactly as if it had arrived directly. The
 * header names only a public API path (anything else is no route), so setting it by hand
 * reaches nothing a direct request could not.
 */
export async function handleUndecodablePath(req: Request): Promise<Response> {
  const original = req.headers.get(ORIGINAL_PATH_HEADER);
  const url = new URL(req.url);
  const path = original?.startsWith(`${PUBLIC_API_PREFIX}/`) ? original : '/public/undecodable-path';
  const headers = new Headers(req.headers);
  headers.delete(ORIGINAL_PATH_HEADER);
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer();
  return handlePublicApi(new Request(new URL(path + url.search, url.origin), { method: req.method, headers, body }));
}
