// Percent-encoded path segments, read once and forgivingly. A segment whose encoding is
// broken (`%ZZ`, a lone `%`, bytes that are not UTF-8 such as `%C0%AE` or the surrogate
// `%ED%A0%80`) cannot name anything Herald has: it is kept as written, so the route
// answers its usual not-found instead of failing. Kept free of other imports: the Next.js
// proxy (proxy.ts) uses it before routing.

/** A path segment as the client meant it; a broken one exactly as written. */
export function decodePathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Whether Next.js can decode every segment of a path (it answers 500 itself when not). */
export function decodesCleanly(pathname: string): boolean {
  try {
    for (const segment of pathname.split('/')) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** The static route proxy.ts sends undecodable API paths to, and the header with the original. */
export const UNDECODABLE_PATH_ROUTE = '/public/undecodable-path';
export const ORIGINAL_PATH_HEADER = 'x-herald-original-path';
