// GET/HEAD /media/files/<key>: objects of the local store, at stable public URLs. Keys are
// checked segment by segment (no dot segments, no hidden files, nothing outside the store).
// Single byte ranges are honoured: platforms fetching video commonly ask for them.
import { Readable } from 'node:stream';
import { AppError } from '@/server/errors/app-error';
import { mediaErrorResponse } from './error-response';
import { LocalDiskStorage, mediaStorage } from '../storage';

export const FILES_PREFIX = '/media/files/';

/** The storage key a request path names, or null. */
export function keyFromPath(pathname: string): string | null {
  if (!pathname.startsWith(FILES_PREFIX)) return null;
  try {
    return pathname.slice(FILES_PREFIX.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
}

type Range = { start: number; end: number } | 'unsatisfiable' | null;

function parseRange(header: string | null, size: number): Range {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // not a single range we understand: send it all
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix === 0 ? 'unsatisfiable' : { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start >= size || end < start ? 'unsatisfiable' : { start, end };
}

const notFound = () => mediaErrorResponse(new AppError('MEDIA_NOT_FOUND', 'No such media file'));

export async function handleMediaFile(req: Request): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
  }
  try {
    const storage = mediaStorage();
    if (!(storage instanceof LocalDiskStorage)) return notFound();
    const key = keyFromPath(new URL(req.url).pathname);
    const stored = key ? await storage.head(key) : null;
    if (!key || !stored) return notFound();

    const headers: Record<string, string> = {
      'content-type': stored.contentType,
      'accept-ranges': 'bytes',
      // Keys are never reused, so an object never changes.
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    };
    const range = parseRange(req.headers.get('range'), stored.bytes);
    if (range === 'unsatisfiable') {
      return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${stored.bytes}` } });
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? stored.bytes - 1;
    headers['content-length'] = String(stored.bytes === 0 ? 0 : end - start + 1);
    if (range) headers['content-range'] = `bytes ${start}-${end}/${stored.bytes}`;
    const status = range ? 206 : 200;
    if (req.method === 'HEAD' || stored.bytes === 0) return new Response(null, { status, headers });

    const body = await storage.read(key, { start, end });
    return new Response(Readable.toWeb(body) as ReadableStream, { status, headers });
  } catch (err) {
    return mediaErrorResponse(err);
  }
}
