// Sizes the HTTP surface accepts, in one place (docs/decisions.md → Transport limits).
// The contract is silent on them; each is far above what a valid request needs.

/**
 * Request line plus all headers, enforced by Node's HTTP parser itself
 * (`--max-http-header-size`, set by `npm start`): above it the request never reaches a route,
 * and Herald's server answers 431 in the flat shape (server/http/client-error.ts). 16 KiB is
 * Node's default, stated here on purpose.
 */
export const MAX_HTTP_HEADER_BYTES = 16 * 1024;

/**
 * Path plus query string of a public API request. Longer ones (that Node let through)
 * answer 414 URI_TOO_LONG in the flat shape. A valid Herald URL is a few hundred bytes.
 */
export const MAX_URL_BYTES = 8 * 1024;

/**
 * A JSON request body. The largest valid one (a post with 10,000-character content, a
 * variant of as much for each platform, 20 connections, 10 media URLs of 2,048 characters)
 * stays well under 300 KB even with 4-byte characters.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The Authorization header. A key is `Bearer sk_live_` + 43 characters; anything much longer
 * is malformed (401) without being parsed further.
 */
export const MAX_AUTHORIZATION_LENGTH = 256;
