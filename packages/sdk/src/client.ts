// createHerald: the transport (auth, workspace header, idempotency keys, retries on 429/503),
// a typed request() for every route, paginate() for every list, and the resource helpers.
import type { paths } from './generated/openapi.js';
import { randomUUID } from './crypto.js';
import { HeraldError, retryAfterSeconds } from './errors.js';
import { uploadMedia, type UploadInput, type UploadOptions } from './media.js';
import type {
  CallOptions,
  HttpMethod,
  ListItem,
  ListPaths,
  Operation,
  OptionsArg,
  PathsFor,
  QueryParams,
  RequestBody,
  RequestOptions,
  SuccessBody,
} from './types.js';
import { verifyWebhook } from './webhooks.js';

export const WORKSPACE_HEADER = 'X-Service-Workspace';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export interface HeraldOptions {
  /** An `sk_live_…` key. */
  apiKey: string;
  /** Herald's origin (`https://herald.example`) or the API root (`…/public/v1`). */
  baseUrl: string;
  /** Sent as X-Service-Workspace: an agency key acting for one of its managed workspaces. */
  workspaceId?: string;
  fetch?: typeof fetch;
  /** Retries after 429, 503 or no answer at all (default 3). */
  maxRetries?: number;
  /** The longest wait before a retry (default 60 000 ms): a Retry-After beyond it is not waited for, the error is thrown. */
  maxRetryDelayMs?: number;
  headers?: Record<string, string>;
}

type Init = { method: HttpMethod; headers: Record<string, string>; body?: BodyInit; duplex?: 'half'; signal?: AbortSignal };

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export function createHerald(options: HeraldOptions) {
  const root = options.baseUrl.replace(/\/+$/, '').replace(/(\/public\/v1)?$/, '/public/v1');
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;

  /**
   * Sends `init()` (built again per attempt, so a streamed body can be resent) and retries on
   * 429/503 after Retry-After (else a short backoff), and on no answer, only when `retryable`.
   */
  async function send(url: string, init: () => Init, retryable: boolean, maxRetries = options.maxRetries ?? 3): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const request = init();
      const backoff = Math.min(maxRetryDelayMs, 500 * 2 ** attempt);
      let res: Response;
      try {
        res = await fetchImpl(url, request as RequestInit);
      } catch (cause) {
        if (!retryable || attempt >= maxRetries || request.signal?.aborted) {
          throw new HeraldError({ status: 0, code: 'CONNECTION_FAILED', message: `No answer from ${url}: ${(cause as Error)?.message ?? cause}`, cause });
        }
        await sleep(backoff, request.signal);
        continue;
      }
      if ((res.status === 429 || res.status === 503) && retryable && attempt < maxRetries) {
        const after = retryAfterSeconds(res.headers);
        const wait = after === undefined ? backoff : after * 1000;
        if (wait <= maxRetryDelayMs) {
          await res.body?.cancel().catch(() => {});
          await sleep(wait, request.signal);
          continue;
        }
      }
      return res;
    }
  }

  /** Any route of the document, typed from its path: `request('GET', '/posts/{id}', { path: { id } })`. */
  async function request<M extends HttpMethod, P extends PathsFor<M>>(
    method: M,
    path: P,
    ...[opts]: OptionsArg<Operation<M, P & keyof paths>>
  ): Promise<SuccessBody<Operation<M, P & keyof paths>>> {
    const o = (opts ?? {}) as RequestOptions<unknown> & { path?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
    let url = root + String(path).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(o.path?.[name] ?? '')));
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(o.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
    }
    if (search.size) url += `?${search}`;

    const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...o.headers, authorization: `Bearer ${options.apiKey}` };
    const workspaceId = o.workspaceId === undefined ? options.workspaceId : o.workspaceId;
    if (workspaceId) headers[WORKSPACE_HEADER] = workspaceId;
    const write = method !== 'GET';
    // One key per call, generated before the first attempt: every retry carries the same one.
    const key = o.idempotencyKey === null ? undefined : (o.idempotencyKey ?? (write ? await randomUUID() : undefined));
    if (key !== undefined) headers[IDEMPOTENCY_HEADER] = key;
    const body = o.body === undefined ? undefined : JSON.stringify(o.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    // A POST or PATCH without a key may have run: it is never sent twice.
    const retryable = method === 'GET' || method === 'PUT' || method === 'DELETE' || key !== undefined;

    const res = await send(url, () => ({ method, headers, body, signal: o.signal }), retryable, o.maxRetries);
    if (!res.ok) throw await HeraldError.fromResponse(res);
    if (res.status === 204) return undefined as never;
    const text = await res.text();
    return ((res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text) as never;
  }

  /**
   * Every item of a list, fetching pages as the loop asks: cursor lists (`nextCursor`) follow
   * the cursor; numbered lists (`page`, `limit`, `total`) count pages, skipping an item already
   * seen (a post created meanwhile shifts the pages of a newest-first list).
   */
  async function* paginate<P extends ListPaths>(
    path: P,
    query: QueryParams<Operation<'GET', P>> | Record<string, never> = {},
    call: CallOptions = {},
  ): AsyncGenerator<ListItem<P>, void, undefined> {
    const q: Record<string, unknown> = { ...query };
    const seen = new Set<unknown>();
    for (;;) {
      const page = (await (request as (m: string, p: string, o: unknown) => Promise<unknown>)('GET', path, { ...call, query: q })) as {
        data: ListItem<P>[];
        nextCursor?: string | null;
        page?: number;
        limit?: number;
        total?: number;
      };
      for (const item of page.data) {
        const id = (item as { id?: unknown }).id;
        if (id !== undefined) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        yield item;
      }
      if ('nextCursor' in page) {
        if (!page.nextCursor) return;
        q.cursor = page.nextCursor;
      } else if (typeof page.page === 'number' && typeof page.limit === 'number' && typeof page.total === 'number') {
        if (page.data.length === 0 || page.page * page.limit >= page.total) return;
        q.page = page.page + 1;
      } else {
        return;
      }
    }
  }

  type Body<M extends HttpMethod, P extends PathsFor<M>> = RequestBody<Operation<M, P & keyof paths>>;
  type Query<P extends PathsFor<'GET'>> = QueryParams<Operation<'GET', P & keyof paths>>;
  // The helpers below call request() through this loosely typed alias; their own signatures carry the types.
  const call = request as unknown as <T>(method: HttpMethod, path: string, opts?: object) => Promise<T>;
  type Out<M extends HttpMethod, P extends PathsFor<M>> = Promise<SuccessBody<Operation<M, P & keyof paths>>>;

  const posts = {
    create: (body: Body<'POST', '/posts'>, o: CallOptions = {}): Out<'POST', '/posts'> => call('POST', '/posts', { ...o, body }),
    list: (query: Query<'/posts'> = {}, o: CallOptions = {}) => paginate('/posts', query, o),
    get: (id: string, o: CallOptions = {}): Out<'GET', '/posts/{id}'> => call('GET', '/posts/{id}', { ...o, path: { id } }),
    update: (id: string, body: Body<'PATCH', '/posts/{id}'>, o: CallOptions = {}): Out<'PATCH', '/posts/{id}'> =>
      call('PATCH', '/posts/{id}', { ...o, path: { id }, body }),
    publish: (id: string, o: CallOptions = {}): Out<'POST', '/posts/{id}/publish'> => call('POST', '/posts/{id}/publish', { ...o, path: { id } }),
    cancel: (id: string, o: CallOptions = {}): Out<'DELETE', '/posts/{id}'> => call('DELETE', '/posts/{id}', { ...o, path: { id } }),
    retry: (id: string, o: CallOptions = {}): Out<'POST', '/posts/{id}/retry'> => call('POST', '/posts/{id}/retry', { ...o, path: { id } }),
    targets: (id: string, o: CallOptions = {}): Out<'GET', '/posts/{id}/targets'> => call('GET', '/posts/{id}/targets', { ...o, path: { id } }),
  };

  const media = {
    list: (query: Query<'/media'> = {}, o: CallOptions = {}) => paginate('/media', query, o),
    delete: (id: string, o: CallOptions = {}): Out<'DELETE', '/media/{id}'> => call('DELETE', '/media/{id}', { ...o, path: { id } }),
    /** Upload URL → PUT of the bytes → complete; resolves with the ready asset. */
    upload: (input: UploadInput, opts: UploadOptions): Out<'POST', '/media/{id}/complete'> =>
      uploadMedia(input, opts, {
        uploadUrl: (body, o) => call('POST', '/media/upload-url', { ...o, body }),
        complete: (id, o) => call('POST', '/media/{id}/complete', { ...o, path: { id } }),
        put: (url, init) => send(url, init, true),
      }) as Out<'POST', '/media/{id}/complete'>,
  };

  const connections = {
    list: (o: CallOptions = {}): Out<'GET', '/connections'> => call('GET', '/connections', o),
  };

  const webhooks = {
    list: (o: CallOptions = {}): Out<'GET', '/webhooks'> => call('GET', '/webhooks', o),
    get: (id: string, o: CallOptions = {}): Out<'GET', '/webhooks/{id}'> => call('GET', '/webhooks/{id}', { ...o, path: { id } }),
    create: (body: Body<'POST', '/webhooks'>, o: CallOptions = {}): Out<'POST', '/webhooks'> => call('POST', '/webhooks', { ...o, body }),
    update: (id: string, body: Body<'PATCH', '/webhooks/{id}'>, o: CallOptions = {}): Out<'PATCH', '/webhooks/{id}'> =>
      call('PATCH', '/webhooks/{id}', { ...o, path: { id }, body }),
    delete: (id: string, o: CallOptions = {}): Out<'DELETE', '/webhooks/{id}'> => call('DELETE', '/webhooks/{id}', { ...o, path: { id } }),
    rotateSecret: (id: string, o: CallOptions = {}): Out<'POST', '/webhooks/{id}/rotate-secret'> =>
      call('POST', '/webhooks/{id}/rotate-secret', { ...o, path: { id } }),
    test: (id: string, o: CallOptions = {}): Out<'POST', '/webhooks/{id}/test'> => call('POST', '/webhooks/{id}/test', { ...o, path: { id } }),
    deliveries: (id: string, query: Query<'/webhooks/{id}/deliveries'> = {}, o: CallOptions = {}): Out<'GET', '/webhooks/{id}/deliveries'> =>
      call('GET', '/webhooks/{id}/deliveries', { ...o, path: { id }, query }),
    verify: verifyWebhook,
  };

  return { request, paginate, posts, media, connections, webhooks };
}

export type Herald = ReturnType<typeof createHerald>;
