// Next.js proxy (runs before routing), for the public API only. Next decodes the segments of
// `app/public/v1/[...path]` itself and answers a plain-text 500 when a segment's
// percent-encoding is broken (`/public/v1/posts/%ZZ`), before Herald's handler runs — even
// after a rewrite to a repaired path, as it decodes the original URL. Such a request is
// rewritten to a static route (app/public/undecodable-path) with the original path in a
// header, so the REST facade answers it in the contract's envelope: for an id, the route's
// not-found, as for any other id that names nothing.
import { NextResponse, type NextRequest } from 'next/server';
import { decodesCleanly, ORIGINAL_PATH_HEADER, UNDECODABLE_PATH_ROUTE } from '@/server/http/percent-encoding';

export function proxy(request: NextRequest): NextResponse {
  const { pathname } = request.nextUrl;
  if (!pathname.includes('%') || decodesCleanly(pathname)) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = UNDECODABLE_PATH_ROUTE;
  const headers = new Headers(request.headers);
  headers.set(ORIGINAL_PATH_HEADER, pathname);
  return NextResponse.rewrite(url, { request: { headers } });
}

// Only paths with a percent sign can be undecodable: every other request skips the proxy,
// whose pass through Next's middleware pipeline otherwise costs every API call (measured in
// docs/performance.md). Next tests the raw path against this pattern as well as the decoded one.
export const config = { matcher: '/public/:path(.*%.*)' };
