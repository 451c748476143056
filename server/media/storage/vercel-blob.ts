// Vercel Blob (production, selected by BLOB_READ_WRITE_TOKEN). Server-side writes go through
// @vercel/blob; clients upload straight to the Blob API with a client token (the SDK's
// client-upload mechanism) scoped to one pathname, one content type, a maximum size equal to
// the declared length, and the upload URL's expiry. Bytes never pass through our functions,
// so the platform's request-body limit does not cap uploads. The API base is the one the SDK
// reads itself (VERCEL_BLOB_API_URL), which is how tests point both at a local stand-in.
import { Readable } from 'node:stream';
import { BlobNotFoundError, del, head, put } from '@vercel/blob';
import { generateClientTokenFromReadWriteToken } from '@vercel/blob/client';
import { BodyLengthError, ObjectNotFoundError, storageUnavailable, type MediaStorage, type PresignedUpload, type PutOptions, type StoredObject } from './port';
import { env } from '@/server/config/env';

export interface VercelBlobOptions {
  /** A read-write token, `vercel_blob_rw_<storeId>_<secret>`. */
  token: string;
  /** Where stored objects are served; default the store's public host. */
  publicBaseUrl?: string;
  /** Deadline of metadata calls (head, delete, the reachability probe). */
  timeoutMs?: number;
  /** Deadline of transfers (put, read). */
  transferTimeoutMs?: number;
}

/** The Blob API version @vercel/blob 2.x speaks; a direct upload must send it like the SDK does. */
const BLOB_API_VERSION = '12';

/** The same base URL @vercel/blob builds its requests on. */
export function blobApiUrl(): string {
  return env.vercelBlobApiUrl();
}

export class VercelBlobStorage implements MediaStorage {
  readonly kind = 'vercel-blob' as const;
  private readonly publicBase: string;
  private readonly timeoutMs: number;
  private readonly transferTimeoutMs: number;

  constructor(private readonly opts: VercelBlobOptions) {
    const storeId = opts.token.split('_')[3];
    if (!opts.token.startsWith('vercel_blob_rw_') || !storeId) throw storageUnavailable('BLOB_READ_WRITE_TOKEN is not a Vercel Blob read-write token');
    this.publicBase = (opts.publicBaseUrl ?? `https://${storeId.toLowerCase()}.public.blob.vercel-storage.com`).replace(/\/$/, '');
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.transferTimeoutMs = opts.transferTimeoutMs ?? 120_000;
  }

  /** One authenticated metadata call: proves the API answers and the token is accepted. */
  async ensureAvailable(): Promise<void> {
    await this.head('.herald-availability-probe');
  }

  async put(key: string, body: Readable | Uint8Array, opts: PutOptions): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.transferTimeoutMs);
    let bodyError: unknown;
    if (body instanceof Readable) {
      // Abort at once so the SDK does not retry a request whose body already failed.
      body.once('error', (e) => {
        bodyError ??= e;
        controller.abort();
      });
    }
    try {
      await put(key, body instanceof Readable ? body : Buffer.from(body), {
        access: 'public',
        token: this.opts.token,
        contentType: opts.contentType,
        addRandomSuffix: false,
        allowOverwrite: true,
        abortSignal: controller.signal,
      });
    } catch (e) {
      if (bodyError !== undefined) throw bodyError;
      throw storageUnavailable('Vercel Blob refused or did not answer the upload', e);
    } finally {
      clearTimeout(timer);
    }
    // Blob cannot check an exact length before committing: check after, and take it back.
    if (opts.bytes !== undefined) {
      const stored = await this.head(key);
      if (stored?.bytes !== opts.bytes) {
        await this.delete(key);
        throw new BodyLengthError(opts.bytes, stored?.bytes ?? 0);
      }
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const found = await head(key, { token: this.opts.token, abortSignal: AbortSignal.timeout(this.timeoutMs) });
      return { bytes: found.size, contentType: found.contentType };
    } catch (e) {
      if (e instanceof BlobNotFoundError) return null;
      throw storageUnavailable('Vercel Blob did not answer', e);
    }
  }

  async read(key: string, opts: { start?: number; end?: number } = {}): Promise<Readable> {
    const start = opts.start ?? 0;
    const ranged = start > 0 || opts.end !== undefined;
    let res: Response;
    try {
      res = await fetch(this.publicUrl(key), {
        headers: ranged ? { range: `bytes=${start}-${opts.end ?? ''}` } : {},
        signal: AbortSignal.timeout(this.transferTimeoutMs),
      });
    } catch (e) {
      throw storageUnavailable('the Vercel Blob object could not be fetched', e);
    }
    if (res.status === 404) throw new ObjectNotFoundError(key);
    if (res.status === 416) return Readable.from([]);
    if (!res.ok || !res.body) throw storageUnavailable(`the Vercel Blob object answered ${res.status}`);
    const stream = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    // A server that ignores Range sends everything: drop what was not asked for.
    return ranged && res.status === 200 ? Readable.from(sliceBytes(stream, start, opts.end)) : stream;
  }

  async delete(key: string): Promise<void> {
    try {
      await del(key, { token: this.opts.token, abortSignal: AbortSignal.timeout(this.timeoutMs) });
    } catch (e) {
      if (e instanceof BlobNotFoundError) return;
      throw storageUnavailable('Vercel Blob did not delete the object', e);
    }
  }

  publicUrl(key: string): string {
    return `${this.publicBase}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  async presignUpload(opts: { key: string; contentType: string; bytes: number; expiresAt: Date }): Promise<PresignedUpload> {
    // Issuing a client token is a local signature; ask the store once so an unreachable or
    // refusing store answers 503 now rather than after the client sent the bytes.
    await this.ensureAvailable();
    const clientToken = await generateClientTokenFromReadWriteToken({
      token: this.opts.token,
      pathname: opts.key,
      allowedContentTypes: [opts.contentType],
      maximumSizeInBytes: opts.bytes,
      validUntil: opts.expiresAt.getTime(),
      addRandomSuffix: false,
      // Once completed, an asset's bytes must not be replaced behind the checks of /complete.
      allowOverwrite: false,
    });
    return {
      url: `${blobApiUrl()}/?${new URLSearchParams({ pathname: opts.key })}`,
      method: 'PUT',
      headers: {
        'Content-Type': opts.contentType,
        'Content-Length': String(opts.bytes),
        Authorization: `Bearer ${clientToken}`,
        'x-api-version': BLOB_API_VERSION,
        'x-vercel-blob-access': 'public',
        'x-content-type': opts.contentType,
      },
    };
  }
}

async function* sliceBytes(source: Readable, start: number, end?: number): AsyncGenerator<Buffer> {
  let offset = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const from = Math.max(start - offset, 0);
      const to = end === undefined ? chunk.length : Math.min(end + 1 - offset, chunk.length);
      offset += chunk.length;
      if (to > from) yield chunk.subarray(from, to);
      if (end !== undefined && offset > end) return;
    }
  } finally {
    source.destroy();
  }
}
