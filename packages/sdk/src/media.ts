// media.upload: POST /media/upload-url → PUT of the bytes to the URL it returns (with its
// headers, exact Content-Length) → POST /media/{id}/complete. On Node the bytes are streamed
// in chunks, so onProgress follows the upload; elsewhere they go in one piece.
import type { CallOptions, HttpMethod } from './types.js';
import { HeraldError } from './errors.js';

export type UploadInput = Blob | Uint8Array | ArrayBuffer;

export interface UploadOptions extends Pick<CallOptions, 'workspaceId' | 'signal'> {
  /** The file's media type (image/jpeg, image/png, image/gif, image/webp, video/mp4, video/quicktime); a File's own type by default. */
  contentType?: string;
  /** The name shown in the media library; a File's own name by default. */
  name?: string;
  /** Called as bytes leave: (sent, total). */
  onProgress?: (sent: number, total: number) => void;
}

interface Upload {
  url: string;
  method: string;
  headers: Record<string, string>;
}

interface Steps {
  uploadUrl(
    body: { kind: 'image' | 'video'; contentType: string; bytes: number; filename?: string },
    o: CallOptions,
  ): Promise<{ data: { id: string; upload: Upload } }>;
  complete(id: string, o: CallOptions): Promise<unknown>;
  put(
    url: string,
    init: () => { method: HttpMethod; headers: Record<string, string>; body?: BodyInit; duplex?: 'half'; signal?: AbortSignal },
  ): Promise<Response>;
}

const CHUNK = 64 * 1024;
const isNode = () => Boolean((globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node);

function counted(input: Blob | Uint8Array, total: number, onProgress?: (sent: number, total: number) => void): ReadableStream<Uint8Array> {
  let sent = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Uint8Array | undefined;
      if (input instanceof Uint8Array) {
        chunk = sent < total ? input.subarray(sent, Math.min(sent + CHUNK, total)) : undefined;
      } else {
        reader ??= (input.stream() as ReadableStream<Uint8Array>).getReader();
        const next = await reader.read();
        chunk = next.done ? undefined : next.value;
      }
      if (!chunk) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
      onProgress?.(sent, total);
    },
    cancel: (reason) => reader?.cancel(reason),
  });
}

export async function uploadMedia(input: UploadInput, opts: UploadOptions, steps: Steps): Promise<unknown> {
  const data = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  const contentType = opts.contentType ?? (data instanceof Blob ? data.type : '');
  if (!contentType) throw new TypeError('media.upload needs a contentType');
  const name = opts.name ?? (typeof File !== 'undefined' && data instanceof File ? data.name : undefined);
  const total = data instanceof Blob ? data.size : data.byteLength;
  const call = { workspaceId: opts.workspaceId, signal: opts.signal };

  const kind = contentType.startsWith('video/') ? 'video' : 'image';
  const created = await steps.uploadUrl({ kind, contentType, bytes: total, ...(name ? { filename: name } : {}) }, call);
  const { id, upload } = created.data;

  const res = await steps.put(upload.url, () => {
    const headers = { ...upload.headers, 'Content-Length': String(total) };
    if (isNode()) return { method: upload.method as HttpMethod, headers, body: counted(data, total, opts.onProgress), duplex: 'half', signal: opts.signal };
    // Browsers set Content-Length themselves and stream no request bodies over HTTP/1.1.
    delete (headers as Record<string, string>)['Content-Length'];
    opts.onProgress?.(0, total);
    return { method: upload.method as HttpMethod, headers, body: data as BodyInit, signal: opts.signal };
  });
  if (!res.ok) throw await HeraldError.fromResponse(res);
  await res.body?.cancel().catch(() => {});
  if (!isNode()) opts.onProgress?.(total, total);
  return steps.complete(id, call);
}
