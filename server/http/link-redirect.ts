// GET /l/{code}: Herald's short links (server/links), no login. The code is looked up and the
// browser sent (302) to the destination Herald stored for it, never to an address the request
// carries: a code Herald did not make is 404 LINK_NOT_FOUND in the error envelope. The click is
// counted in memory and written within a second (server/links/follow-link.ts), so the answer
// never waits for a write. Served by Herald's own server on its fast path and by the App
// Router route file (app/l/[code]) alike.
import { AppError } from '@/server/errors/app-error';
import { errorToResponse } from '@/server/errors/http';
import { followShortLink } from '@/server/links/follow-link';
import { SHORT_LINK_PATH } from '@/server/links/links.schemas';

/** A redirect is not cached (each visit is a click) and the page is not indexed. */
const HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

export async function handleLinkRedirect(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname;
  const code = path.startsWith(SHORT_LINK_PATH) ? path.slice(SHORT_LINK_PATH.length) : '';
  try {
    const destination = await followShortLink(code, { method: req.method, userAgent: req.headers.get('user-agent') });
    if (destination === null) throw new AppError('LINK_NOT_FOUND', 'No short link with that code');
    return new Response(null, { status: 302, headers: { ...HEADERS, Location: destination } });
  } catch (err) {
    const res = errorToResponse(err);
    res.headers.set('Cache-Control', 'no-store');
    return res;
  }
}
