// The name the media library shows and searches: what the person called the file. The
// migration that added the column names existing assets by the same rules.
import type { MediaKind } from './media-rules';

export const MAX_NAME_LENGTH = 255;

/** `image-1a2b3c4d.jpg`: for an upload sent without a file name, or a URL without one. */
export function fallbackName(kind: MediaKind, id: string, storageKey: string): string {
  return `${kind}-${id.slice(0, 8)}.${storageKey.slice(storageKey.lastIndexOf('.') + 1)}`;
}

/** A client's file name as a name: its last path component (browsers on Windows sent whole paths), trimmed. */
export function nameFromFilename(filename: string | undefined): string | null {
  const base = (filename ?? '').split(/[\\/]/).pop()!.trim();
  return base ? base.slice(0, MAX_NAME_LENGTH) : null;
}

/** A URL import's last path segment, decoded (`autumn%20menu.jpg` → `autumn menu.jpg`); null when the path ends without one. */
export function nameFromUrl(url: string): string | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const segment = path.slice(path.lastIndexOf('/') + 1);
  if (!segment) return null;
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A stray % is kept as written.
  }
  return nameFromFilename(decoded.replace(/\u0000/g, ''));
}
