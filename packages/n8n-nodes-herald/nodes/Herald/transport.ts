// Requests to Herald's public API from a node: the credential authenticates each one (n8n's
// httpRequestWithAuthentication), every write carries an Idempotency-Key, and lists are read
// page by page (numbered pages with page/limit/total, or cursor pages with nextCursor).
import { randomUUID } from 'node:crypto';
import type {
  IDataObject,
  IExecuteFunctions,
  IHookFunctions,
  ILoadOptionsFunctions,
  IHttpRequestMethods,
  IHttpRequestOptions,
  IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, type JsonObject } from 'n8n-workflow';
import { apiRoot } from '../../credentials/HeraldApi.credentials';

export type HeraldContext = IExecuteFunctions | IHookFunctions | IWebhookFunctions | ILoadOptionsFunctions;

export const CREDENTIAL = 'heraldApi';

export interface HeraldRequest {
  qs?: IDataObject;
  body?: IDataObject;
  /** The Idempotency-Key of a write; a fresh UUID when not given. */
  idempotencyKey?: string;
}

const isWrite = (method: IHttpRequestMethods) => method !== 'GET' && method !== 'HEAD';

/** The API root of the node's Herald credential. */
export async function heraldRoot(ctx: HeraldContext): Promise<string> {
  const credentials = await ctx.getCredentials(CREDENTIAL);
  return apiRoot(credentials.baseUrl);
}

/** One authenticated call; Herald's error body becomes a NodeApiError naming its code. */
export async function heraldRequest<T = IDataObject>(ctx: HeraldContext, method: IHttpRequestMethods, path: string, req: HeraldRequest = {}): Promise<T> {
  const options: IHttpRequestOptions = {
    method,
    url: `${await heraldRoot(ctx)}${path}`,
    json: true,
    headers: { Accept: 'application/json' },
  };
  if (req.qs && Object.keys(req.qs).length) options.qs = req.qs;
  if (req.body !== undefined) options.body = req.body;
  if (isWrite(method)) options.headers!['Idempotency-Key'] = req.idempotencyKey || randomUUID();
  try {
    return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL, options)) as T;
  } catch (error) {
    const message = heraldMessage(error);
    // n8n's request helper already throws a NodeApiError (its message generic, like "Bad request"):
    // it keeps its HTTP code and takes Herald's words.
    if (error instanceof Error && error.name === 'NodeApiError') {
      if (message) {
        (error as NodeApiError).description = error.message;
        error.message = message;
      }
      throw error;
    }
    throw new NodeApiError(ctx.getNode(), error as JsonObject, message ? { message } : {});
  }
}

/** Herald's own words for a refusal: `CODE: message` from its error body, when it has one. */
function heraldMessage(error: unknown): string | undefined {
  // n8n's NodeApiError keeps the response body in context.data; a raw HTTP error in response.data.
  const e = error as { context?: { data?: unknown }; response?: { data?: unknown }; cause?: { response?: { data?: unknown } } };
  const data = e.context?.data ?? e.response?.data ?? e.cause?.response?.data;
  const body = (typeof data === 'string' ? safeJson(data) : data) as { error?: { code?: string; message?: string } } | undefined;
  if (body?.error?.code) return `${body.error.code}: ${body.error.message ?? ''}`.trim();
  return undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface Page {
  data: IDataObject[];
  nextCursor?: string | null;
  page?: number;
  limit?: number;
  total?: number;
}

/** Items of a list route: all of them (`limit` undefined) or the first `limit`. */
export async function heraldList(ctx: HeraldContext, path: string, qs: IDataObject, limit: number | undefined): Promise<IDataObject[]> {
  const items: IDataObject[] = [];
  const query: IDataObject = { ...qs };
  const seen = new Set<unknown>();
  for (;;) {
    const page = await heraldRequest<Page>(ctx, 'GET', path, { qs: query });
    for (const item of page.data ?? []) {
      // Numbered pages can shift while they are read: an item seen on an earlier page is skipped.
      if (item.id !== undefined && seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
      if (limit !== undefined && items.length >= limit) return items;
    }
    if ('nextCursor' in page) {
      if (!page.nextCursor) return items;
      query.cursor = page.nextCursor;
    } else if (typeof page.page === 'number' && typeof page.limit === 'number' && typeof page.total === 'number') {
      if (!page.data?.length || page.page * page.limit >= page.total) return items;
      query.page = page.page + 1;
    } else {
      return items;
    }
  }
}
