// The real type of a file, from its first bytes (magic numbers), never from what a client or a
// remote server claims.
import type { AcceptedContentType } from '../media-rules';

/** Bytes sniff() needs to decide. */
export const SNIFF_BYTES = 16;

const ascii = (bytes: Uint8Array, start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');

export function sniffContentType(bytes: Uint8Array): AcceptedContentType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'image/gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  // ISO base media (MP4, MOV): the first box is `ftyp`; its major brand tells QuickTime apart.
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') return ascii(bytes, 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  return null;
}

/**
 * MP4 and QuickTime are one container family (ISO base media): phones label the same file
 * either way and the brand says little about what platforms accept, so within the family a
 * declaration is not a mismatch. Images must match exactly.
 */
export function sameFamily(declared: AcceptedContentType, sniffed: AcceptedContentType): boolean {
  if (declared === sniffed) return true;
  const video = new Set<AcceptedContentType>(['video/mp4', 'video/quicktime']);
  return video.has(declared) && video.has(sniffed);
}

/** A readable guess for messages: what a refused body looks like. */
export function describeBytes(bytes: Uint8Array, claimed?: string | null): string {
  const text = ascii(bytes, 0, Math.min(bytes.length, 64)).trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'an HTML page';
  if (text.startsWith('{') || text.startsWith('[')) return 'JSON';
  if (bytes.length === 0) return 'an empty body';
  return claimed ? `${claimed} content` : 'neither an image nor a video';
}
