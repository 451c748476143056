import { HeraldError } from './errors.js';
const CHUNK = 64 * 1024;
const isNode = () => Boolean(globalThis.process?.versions?.node);
function counted(input, total, onProgress) {
    let sent = 0;
    let reader;
    return new ReadableStream({
        async pull(controller) {
            let chunk;
            if (input instanceof Uint8Array) {
                chunk = sent < total ? input.subarray(sent, Math.min(sent + CHUNK, total)) : undefined;
            }
            else {
                reader ??= input.stream().getReader();
                const next = await reader.read();
                chunk = next.done ? undefined : next.value;
            }
            if (!chunk)
                return controller.close();
            sent += chunk.byteLength;
            controller.enqueue(chunk);
            onProgress?.(sent, total);
        },
        cancel: (reason) => reader?.cancel(reason),
    });
}
export async function uploadMedia(input, opts, steps) {
    const data = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
    const contentType = opts.contentType ?? (data instanceof Blob ? data.type : '');
    if (!contentType)
        throw new TypeError('media.upload needs a contentType');
    const name = opts.name ?? (typeof File !== 'undefined' && data instanceof File ? data.name : undefined);
    const total = data instanceof Blob ? data.size : data.byteLength;
    const call = { workspaceId: opts.workspaceId, signal: opts.signal };
    const kind = contentType.startsWith('video/') ? 'video' : 'image';
    const created = await steps.uploadUrl({ kind, contentType, bytes: total, ...(name ? { filename: name } : {}) }, call);
    const { id, upload } = created.data;
    const res = await steps.put(upload.url, () => {
        const headers = { ...upload.headers, 'Content-Length': String(total) };
        if (isNode())
            return { method: upload.method, headers, body: counted(data, total, opts.onProgress), duplex: 'half', signal: opts.signal };
        // Browsers set Content-Length themselves and stream no request bodies over HTTP/1.1.
        delete headers['Content-Length'];
        opts.onProgress?.(0, total);
        return { method: upload.method, headers, body: data, signal: opts.signal };
    });
    if (!res.ok)
        throw await HeraldError.fromResponse(res);
    await res.body?.cancel().catch(() => { });
    if (!isNode())
        opts.onProgress?.(total, total);
    return steps.complete(id, call);
}
