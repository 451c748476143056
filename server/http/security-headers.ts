// The security headers of every page Herald serves, set by the Next.js proxy (proxy.ts), so
// they hold on both hostings (Herald's own server hands pages to Next's handler, which runs
// the proxy; `next start` runs it too). The API (/public/**), the app's JSON endpoints
// (/api/**) and files are not pages and keep their answers exactly as the contract has them.
//   - Content-Security-Policy: scripts only from Herald and only with this response's nonce
//     (Next reads it from the request's CSP header and puts it on its own scripts); no plugin,
//     no <base> rewrite, no framing by anyone (frame-ancestors 'none', and X-Frame-Options for
//     browsers that predate it). Styles allow inline attributes: the pages use React style
//     props, which a nonce cannot cover; styles cannot run code.
//   - X-Content-Type-Options: nosniff.
//   - Referrer-Policy: no Referer ever leaves a page whose address is a secret or a pending
//     request: `no-referrer` on the client links' pages; `same-origin` on a team invitation, a password reset link, an assistant's
//     staged action and the OAuth consent, whose forms post back to Herald, because under
//     `no-referrer` the browser sends `Origin: null` and the CSRF checks that read Origin
//     (the consent's decision, Next's server actions) would refuse the member's own answer.
//     `strict-origin` elsewhere.
//   - Strict-Transport-Security once the page was served over https.
// Kept free of imports: the proxy runs before routing.

/** Pages whose URL carries a secret (a client link's token): nothing of them leaves in a Referer. */
const TOKEN_PAGES = ['/connect/', '/review/', '/report/'];
/** Pages of a pending request that post back to Herald: no Referer to another site, Origin kept for Herald. */
const REQUEST_PAGES = ['/proposals/', '/oauth/authorize', '/invite/', '/signin/reset/'];

export const HSTS = 'max-age=31536000';

export function contentSecurityPolicy(nonce: string, opts: { dev: boolean }): string {
  return [
    `default-src 'self'`,
    // 'strict-dynamic': a script Next loaded with the nonce may load its chunks.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? ` 'unsafe-eval'` : ''}`,
    `style-src 'self' 'unsafe-inline'`,
    // Media previews come from the object store (Vercel Blob or this server) and platforms' CDNs.
    `img-src 'self' data: blob: https:`,
    `media-src 'self' blob: https:`,
    `font-src 'self' data:`,
    `connect-src 'self'${opts.dev ? ' ws: wss:' : ''}`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

export function referrerPolicyFor(pathname: string): string {
  if (TOKEN_PAGES.some((p) => pathname.startsWith(p))) return 'no-referrer';
  return REQUEST_PAGES.some((p) => pathname.startsWith(p)) ? 'same-origin' : 'strict-origin';
}

/** The response headers of a page. */
export function pageSecurityHeaders(opts: { nonce: string; pathname: string; https: boolean; dev: boolean }): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(opts.nonce, { dev: opts.dev }),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': referrerPolicyFor(opts.pathname),
    ...(opts.https ? { 'Strict-Transport-Security': HSTS } : {}),
  };
}
