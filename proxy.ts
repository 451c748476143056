// Next.js proxy (runs before routing). Two jobs:
//  - Every page gets Herald's security headers (server/http/security-headers.ts): a CSP with
//    a fresh nonce per response, which Next reads from the request's CSP header and puts on
//    the scripts it renders, and the framing, sniffing, referrer and transport rules.
//  - The public API: Next decodes the segments of `app/public/v1/[...path]` itself and
//    answers a plain-text 500 when a segment's percent-encoding is broken
//    (`/public/v1/posts/%ZZ`), before Herald's handler runs — even after a rewrite to a
//    repaired path, as it decodes the original URL. Such a request is rewritten to a static
//    route (app/public/undecodable-path) with the original path in a header, so the REST
//    facade answers it in the contract's envelope: for an id, the route's not-found.
import { NextResponse, type NextRequest } from 'next/server';
import { decodesCleanly, ORIGINAL_PATH_HEADER, UNDECODABLE_PATH_ROUTE } from '@/server/http/percent-encoding';
import { pageSecurityHeaders } from '@/server/http/security-headers';

function undecodable(request: NextRequest): NextResponse {
  const { pathname } = request.nextUrl;
  if (!pathname.includes('%') || decodesCleanly(pathname)) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = UNDECODABLE_PATH_ROUTE;
  const headers = new Headers(request.headers);
  headers.set(ORIGINAL_PATH_HEADER, pathname);
  return NextResponse.rewrite(url, { request: { headers } });
}

function page(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64');
  const forwarded = request.headers.get('x-forwarded-proto');
  const https = forwarded ? forwarded.split(',')[0]!.trim() === 'https' : request.nextUrl.protocol === 'https:';
  // Inlined by Next at build: development needs eval for its refresh runtime.
  // eslint-disable-next-line no-restricted-properties
  const dev = process.env.NODE_ENV === 'development';
  const security = pageSecurityHeaders({ nonce, pathname: request.nextUrl.pathname, https, dev });
  const headers = new Headers(request.headers);
  headers.set('Content-Security-Policy', security['Content-Security-Policy']!);
  const response = NextResponse.next({ request: { headers } });
  for (const [name, value] of Object.entries(security)) response.headers.set(name, value);
  return response;
}

export function proxy(request: NextRequest): NextResponse {
  return request.nextUrl.pathname.startsWith('/public/') ? undecodable(request) : page(request);
}

// The API and the app's JSON endpoints skip the proxy: only paths with a percent sign can be
// undecodable, and the proxy's pass through Next's pipeline otherwise costs every API call
// (docs/performance.md). Next tests the raw path against these patterns as well as the
// decoded one. Everything else that renders a page goes through it, except the API reference,
// a static page with no inline script that sends its own, stricter CSP (server/http/api-reference.ts):
// a second policy with a nonce would block its one script.
export const config = {
  matcher: [
    '/public/:path(.*%.*)',
    '/((?!public/|api/|l/|hooks/|_next/|media/|\\.well-known/|oauth/(?:token|register|revoke)|api-reference|favicon\\.ico|icon\\.svg).*)',
  ],
};
