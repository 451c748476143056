// What a stored object really is: the type from its bytes, image size from its header, video
// duration and size from its container. Shared by /complete and the mediaUrls import.
import { ACCEPTED_TYPES, type AcceptedContentType, type MediaKind } from '../media-rules';
import type { MediaStorage } from '../storage/port';
import { IMAGE_HEADER_BYTES, readImageSize } from './image-info';
import { describeBytes, sniffContentType } from './sniff';
import { readVideoInfo } from './video-info';

export type Inspection =
  | { ok: true; contentType: AcceptedContentType; kind: MediaKind; durationMs: number | null; width: number | null; height: number | null }
  | { ok: false; sniffed: AcceptedContentType | null; problem: string };

export async function readObjectHead(storage: MediaStorage, key: string, bytes: number): Promise<Buffer> {
  const stream = await storage.read(key, { start: 0, end: bytes - 1 });
  const parts: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parts.push(chunk);
      total += chunk.length;
      if (total >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(parts).subarray(0, bytes);
}

export async function inspectObject(storage: MediaStorage, key: string): Promise<Inspection> {
  const head = await readObjectHead(storage, key, IMAGE_HEADER_BYTES);
  const sniffed = sniffContentType(head);
  if (!sniffed) return { ok: false, sniffed: null, problem: `${describeBytes(head)}, not an image or video in an accepted format` };
  const kind = ACCEPTED_TYPES[sniffed].kind;
  if (kind === 'image') return { ok: true, contentType: sniffed, kind, durationMs: null, ...readImageSize(head) };

  const info = await readVideoInfo((start) => storage.read(key, { start }));
  if (!info) return { ok: false, sniffed, problem: 'a video container without a readable movie header (moov)' };
  if (!info.hasVideoTrack) return { ok: false, sniffed, problem: 'a movie without a video track' };
  return { ok: true, contentType: sniffed, kind, durationMs: info.durationMs, width: info.width, height: info.height };
}
