import { randomUUID } from './crypto.js';
import { HeraldError, retryAfterSeconds } from './errors.js';
import { uploadMedia } from './media.js';
import { verifyWebhook } from './webhooks.js';
export const WORKSPACE_HEADER = 'X-Service-Workspace';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const sleep = (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted)
        return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
});
export function createHerald(options) {
    const root = options.baseUrl.replace(/\/+$/, '').replace(/(\/public\/v1)?$/, '/public/v1');
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    /**
     * Sends `init()` (built again per attempt, so a streamed body can be resent) and retries on
     * 429/503 after Retry-After (else a short backoff), and on no answer, only when `retryable`.
     */
    async function send(url, init, retryable, maxRetries = options.maxRetries ?? 3) {
        for (let attempt = 0;; attempt++) {
            const request = init();
            const backoff = Math.min(maxRetryDelayMs, 500 * 2 ** attempt);
            let res;
            try {
                res = await fetchImpl(url, request);
            }
            catch (cause) {
                if (!retryable || attempt >= maxRetries || request.signal?.aborted) {
                    throw new HeraldError({ status: 0, code: 'CONNECTION_FAILED', message: `No answer from ${url}: ${cause?.message ?? cause}`, cause });
                }
                await sleep(backoff, request.signal);
                continue;
            }
            if ((res.status === 429 || res.status === 503) && retryable && attempt < maxRetries) {
                const after = retryAfterSeconds(res.headers);
                const wait = after === undefined ? backoff : after * 1000;
                if (wait <= maxRetryDelayMs) {
                    await res.body?.cancel().catch(() => { });
                    await sleep(wait, request.signal);
                    continue;
                }
            }
            return res;
        }
    }
    /** Any route of the document, typed from its path: `request('GET', '/posts/{id}', { path: { id } })`. */
    async function request(method, path, ...[opts]) {
        const o = (opts ?? {});
        let url = root + String(path).replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(o.path?.[name] ?? '')));
        const search = new URLSearchParams();
        for (const [key, value] of Object.entries(o.query ?? {})) {
            if (value === undefined || value === null)
                continue;
            for (const item of Array.isArray(value) ? value : [value])
                search.append(key, String(item));
        }
        if (search.size)
            url += `?${search}`;
        const headers = { accept: 'application/json', ...options.headers, ...o.headers, authorization: `Bearer ${options.apiKey}` };
        const workspaceId = o.workspaceId === undefined ? options.workspaceId : o.workspaceId;
        if (workspaceId)
            headers[WORKSPACE_HEADER] = workspaceId;
        const write = method !== 'GET';
        // One key per call, generated before the first attempt: every retry carries the same one.
        const key = o.idempotencyKey === null ? undefined : (o.idempotencyKey ?? (write ? await randomUUID() : undefined));
        if (key !== undefined)
            headers[IDEMPOTENCY_HEADER] = key;
        const body = o.body === undefined ? undefined : JSON.stringify(o.body);
        if (body !== undefined)
            headers['content-type'] = 'application/json';
        // A POST or PATCH without a key may have run: it is never sent twice.
        const retryable = method === 'GET' || method === 'PUT' || method === 'DELETE' || key !== undefined;
        const res = await send(url, () => ({ method, headers, body, signal: o.signal }), retryable, o.maxRetries);
        if (!res.ok)
            throw await HeraldError.fromResponse(res);
        if (res.status === 204)
            return undefined;
        const text = await res.text();
        return ((res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text);
    }
    /**
     * Every item of a list, fetching pages as the loop asks: cursor lists (`nextCursor`) follow
     * the cursor; numbered lists (`page`, `limit`, `total`) count pages, skipping an item already
     * seen (a post created meanwhile shifts the pages of a newest-first list).
     */
    async function* paginate(path, query = {}, call = {}) {
        const q = { ...query };
        const seen = new Set();
        for (;;) {
            const page = (await request('GET', path, { ...call, query: q }));
            for (const item of page.data) {
                const id = item.id;
                if (id !== undefined) {
                    if (seen.has(id))
                        continue;
                    seen.add(id);
                }
                yield item;
            }
            if ('nextCursor' in page) {
                if (!page.nextCursor)
                    return;
                q.cursor = page.nextCursor;
            }
            else if (typeof page.page === 'number' && typeof page.limit === 'number' && typeof page.total === 'number') {
                if (page.data.length === 0 || page.page * page.limit >= page.total)
                    return;
                q.page = page.page + 1;
            }
            else {
                return;
            }
        }
    }
    // The helpers below call request() through this loosely typed alias; their own signatures carry the types.
    const call = request;
    const posts = {
        create: (body, o = {}) => call('POST', '/posts', { ...o, body }),
        list: (query = {}, o = {}) => paginate('/posts', query, o),
        get: (id, o = {}) => call('GET', '/posts/{id}', { ...o, path: { id } }),
        update: (id, body, o = {}) => call('PATCH', '/posts/{id}', { ...o, path: { id }, body }),
        publish: (id, o = {}) => call('POST', '/posts/{id}/publish', { ...o, path: { id } }),
        cancel: (id, o = {}) => call('DELETE', '/posts/{id}', { ...o, path: { id } }),
        retry: (id, o = {}) => call('POST', '/posts/{id}/retry', { ...o, path: { id } }),
        targets: (id, o = {}) => call('GET', '/posts/{id}/targets', { ...o, path: { id } }),
    };
    const media = {
        list: (query = {}, o = {}) => paginate('/media', query, o),
        delete: (id, o = {}) => call('DELETE', '/media/{id}', { ...o, path: { id } }),
        /** Upload URL → PUT of the bytes → complete; resolves with the ready asset. */
        upload: (input, opts) => uploadMedia(input, opts, {
            uploadUrl: (body, o) => call('POST', '/media/upload-url', { ...o, body }),
            complete: (id, o) => call('POST', '/media/{id}/complete', { ...o, path: { id } }),
            put: (url, init) => send(url, init, true),
        }),
    };
    const connections = {
        list: (o = {}) => call('GET', '/connections', o),
    };
    const webhooks = {
        list: (o = {}) => call('GET', '/webhooks', o),
        get: (id, o = {}) => call('GET', '/webhooks/{id}', { ...o, path: { id } }),
        create: (body, o = {}) => call('POST', '/webhooks', { ...o, body }),
        update: (id, body, o = {}) => call('PATCH', '/webhooks/{id}', { ...o, path: { id }, body }),
        delete: (id, o = {}) => call('DELETE', '/webhooks/{id}', { ...o, path: { id } }),
        rotateSecret: (id, o = {}) => call('POST', '/webhooks/{id}/rotate-secret', { ...o, path: { id } }),
        test: (id, o = {}) => call('POST', '/webhooks/{id}/test', { ...o, path: { id } }),
        deliveries: (id, query = {}, o = {}) => call('GET', '/webhooks/{id}/deliveries', { ...o, path: { id }, query }),
        verify: verifyWebhook,
    };
    return { request, paginate, posts, media, connections, webhooks };
}
