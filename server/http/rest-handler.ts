// The REST facade: /public/v1/* → the app router through trpc-to-openapi, with the
// contract's exact bodies. The library builds its own error bodies; we capture the error in
// onError and answer with the one mapping in server/errors/http.ts instead.
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import { appRouter } from '@/server/root';
import { createRequestContext, type RequestContext } from '@/server/trpc/context';
import { errorToResponse, toErrorResponse } from '@/server/errors/http';
import { AppError } from '@/server/errors/app-error';

export const PUBLIC_API_PREFIX = '/public/v1';
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT']);

/**
 * Routes like `POST /posts/{id}/publish` take no body; clients commonly send none and no
 * Content-Type. Give the library an empty JSON object so that is not a 415/parse error,
 * and refuse a JSON body that is not an object (arrays would be spread into the input).
 */
async function normaliseBody(req: Request): Promise<Request | Response> {
  if (!BODY_METHODS.has(req.method)) return req;
  const text = await req.text();
  const headers = new Headers(req.headers);
  if (text.trim() === '') {
    headers.set('content-type', 'application/json');
    return new Request(req.url, { method: req.method, headers, body: '{}' });
  }
  if (headers.get('content-type')?.startsWith('application/json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return errorToResponse(new AppError('BAD_REQUEST', 'body must be a JSON object', { messages: ['body must be a JSON object'] }));
      }
    } catch {
      return errorToResponse(new AppError('BAD_REQUEST', 'body is not valid JSON', { messages: ['body is not valid JSON'] }));
    }
  }
  return new Request(req.url, { method: req.method, headers, body: text });
}

export async function handlePublicApi(incoming: Request): Promise<Response> {
  const req = await normaliseBody(incoming);
  if (req instanceof Response) return req;

  const ctx: RequestContext = createRequestContext({ transport: 'rest', headers: req.headers });
  let captured: unknown;
  const res = await createOpenApiFetchHandler({
    endpoint: PUBLIC_API_PREFIX,
    router: appRouter,
    req,
    createContext: () => ctx,
    responseMeta: () => ({ status: ctx.response.status, headers: ctx.response.headers }),
    onError: ({ error }) => {
      captured = error;
    },
  });

  if (captured !== undefined) {
    const mapped = toErrorResponse(captured);
    if (mapped.code === 'INTERNAL_ERROR') console.error('[rest] unexpected error', captured);
    // Rate-limit headers set before the failure still describe the budget.
    return Response.json(mapped.body, { status: mapped.status, headers: { ...ctx.response.headers, ...mapped.headers } });
  }
  if (res.status === 204) return new Response(null, { status: 204, headers: ctx.response.headers });
  return res;
}
