// One mediaUrls entry: downloaded through the outbound guard and streamed into storage, with
// the type taken from the bytes and the size capped by kind while the bytes arrive.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError } from '@/server/errors/app-error';
import { OutboundFailedError, OutboundRefusedError } from '@/server/outbound';
import { inspectObject } from './inspect/inspect-object';
import { describeBytes, SNIFF_BYTES, sniffContentType } from './inspect/sniff';
import { mediaFetcher } from './media-fetcher';
import { ACCEPTED_TYPES, megabytes, storageKey, URL_IMPORT_MAX_BYTES, type AcceptedContentType, type MediaKind } from './media-rules';
import type { MediaStorage } from './storage';

export interface DownloadedMedia {
  id: string;
  storageKey: string;
  kind: MediaKind;
  contentType: AcceptedContentType;
  bytes: number;
  durationMs: number | null;
  width: number | null;
  height: number | null;
}

/** Whole exchange, first byte to last: a 25 MB file on a slow origin still fits. */
const DOWNLOAD_TIMEOUT_MS = 60_000;
const LARGEST_CAP = Math.max(...Object.values(URL_IMPORT_MAX_BYTES));

class UrlProblems {
  constructor(
    private readonly url: string,
    private readonly field: string,
  ) {}

  refused(why: string): AppError {
    return new AppError('MEDIA_URL_REFUSED', `${this.url} was refused: ${why}`, { field: this.field });
  }

  tooLarge(kind: MediaKind | null): AppError {
    const limit = kind
      ? `the ${megabytes(URL_IMPORT_MAX_BYTES[kind])} allowed for ${kind === 'image' ? 'an image' : 'a video'} by URL`
      : `${megabytes(URL_IMPORT_MAX_BYTES.image)} for images and ${megabytes(URL_IMPORT_MAX_BYTES.video)} for videos by URL`;
    return new AppError('MEDIA_TOO_LARGE', `${this.url} is larger than ${limit}`, { field: this.field });
  }

  /** The guard's errors, in the catalogue's terms. */
  translate(error: unknown, kind: MediaKind | null): unknown {
    if (error instanceof OutboundRefusedError) return this.refused(error.reason);
    if (error instanceof OutboundFailedError) {
      if (error.code === 'too_large') return this.tooLarge(kind);
      if (error.code === 'timeout') return this.refused(`it did not answer within ${DOWNLOAD_TIMEOUT_MS / 1000} seconds`);
      return this.refused(`it could not be reached (${error.reason})`);
    }
    return error;
  }
}

/**
 * Downloads `url` into storage under a fresh key, pushing the key to `written` before any byte
 * is stored so the caller can take it back if anything later fails.
 */
export async function downloadMediaUrl(opts: {
  storage: MediaStorage;
  workspaceId: string;
  url: string;
  field: string;
  written: string[];
}): Promise<DownloadedMedia> {
  const { storage, workspaceId, url } = opts;
  const problems = new UrlProblems(url, opts.field);

  let res;
  try {
    res = await mediaFetcher().stream(url, { timeoutMs: DOWNLOAD_TIMEOUT_MS, maxBytes: LARGEST_CAP, headers: { accept: 'image/*, video/*' } });
  } catch (error) {
    throw problems.translate(error, null);
  }
  if (res.status < 200 || res.status > 299) {
    res.body.destroy();
    const redirect = res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : '';
    throw problems.refused(`it answered HTTP ${res.status}, not 2xx${redirect}`);
  }

  // Sniff the first bytes, then hand storage those bytes followed by the rest of the stream.
  const chunks = (res.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  try {
    while (headLength < SNIFF_BYTES) {
      const next = await chunks.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headLength += next.value.length;
    }
  } catch (error) {
    throw problems.translate(error, null);
  }
  const contentType = sniffContentType(Buffer.concat(head));
  if (!contentType) {
    res.body.destroy();
    throw problems.refused(`it returned ${describeBytes(Buffer.concat(head), res.headers.get('content-type'))}, not an image or video`);
  }
  const kind = ACCEPTED_TYPES[contentType].kind;
  const cap = URL_IMPORT_MAX_BYTES[kind];
  if (Number(res.headers.get('content-length') ?? 0) > cap) {
    res.body.destroy();
    throw problems.tooLarge(kind);
  }

  let bytes = 0;
  async function* capped(): AsyncGenerator<Buffer> {
    try {
      for (const chunk of head) {
        bytes += chunk.length;
        if (bytes > cap) throw problems.tooLarge(kind);
        yield chunk;
      }
      while (!ended) {
        const next = await chunks.next();
        if (next.done) break;
        bytes += next.value.length;
        if (bytes > cap) throw problems.tooLarge(kind);
        yield next.value;
      }
    } catch (error) {
      throw problems.translate(error, kind);
    } finally {
      res!.body.destroy();
    }
  }

  const id = randomUUID();
  const key = storageKey(workspaceId, id, contentType);
  opts.written.push(key);
  await storage.put(key, Readable.from(capped()), { contentType });

  const found = await inspectObject(storage, key);
  if (!found.ok) throw problems.refused(`it returned ${found.problem}`);
  return { id, storageKey: key, kind, contentType, bytes, durationMs: found.durationMs, width: found.width, height: found.height };
}
