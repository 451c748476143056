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

/**
 * The same path with every segment that does not decode escaped as literal text (`%` →
 * `%25`), so that decoding it yields the segment as written. Next.js decodes the segments
 * of a dynamic route (`app/public/v1/[...path]`) before calling the route and answers a
 * plain-text 500 when it cannot; after this repair it can, and the REST facade sees the
 * same id it would have kept. Well-formed paths come back unchanged.
 */
export function repairPercentEncoding(pathname: string): string {
  if (!pathname.includes('%')) return pathname;
  return pathname
    .split('/')
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return segment.replaceAll('%', '%25');
      }
    })
    .join('/');
}
