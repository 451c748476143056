// Next.js proxy (runs before routing), for the public API only. Next decodes the segments of
// `app/public/v1/[...path]` itself and answers a plain-text 500 when a segment's
// percent-encoding is broken (`/public/v1/posts/%ZZ`), before Herald's handler runs. Such a
// segment is rewritten to decode to itself, so the REST facade answers the route's
// not-found in the contract's envelope, as for any other id that names nothing.
import { NextResponse, type NextRequest } from 'next/server';
import { repairPercentEncoding } from '@/server/http/percent-encoding';

export function proxy(request: NextRequest): NextResponse {
  const { pathname } = request.nextUrl;
  const repaired = repairPercentEncoding(pathname);
  if (repaired === pathname) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = repaired;
  return NextResponse.rewrite(url);
}

export const config = { matcher: '/public/:path*' };
