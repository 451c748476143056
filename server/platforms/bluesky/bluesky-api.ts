// XRPC calls to an AT Protocol PDS (https://atproto.com/specs/xrpc): queries are GET, procedures
// POST JSON (or raw bytes for uploadBlob), Bearer the session's access JWT. Errors are
// { "error": "InvalidRequest", "message": "…" }; an expired access JWT answers 400 ExpiredToken
// (401 for other refused tokens). Sessions: com.atproto.server.createSession and
// refreshSession (https://docs.bsky.app/docs/api/com-atproto-server-refresh-session), which
// takes the refresh JWT as Bearer and rotates it.
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, firstJsonString, isSuccess, jsonString, withQuery, type ApiResponse, type Fetcher } from '../http';
import type { TokenRefresher } from '../token-refresh';

export const BLUESKY_DEFAULT_SERVICE_URL = 'https://bsky.social';

const TOKEN_ERRORS = new Set(['ExpiredToken', 'InvalidToken', 'AuthenticationRequired', 'AccountTakedown', 'AccountDeactivated']);

export function blueskyError(response: ApiResponse): PlatformError {
  const code = jsonString(response.json, 'error');
  const message = firstJsonString(response.json, ['message', 'error']) || `Bluesky answered HTTP ${response.status}`;
  if (response.status === 401 || (code && TOKEN_ERRORS.has(code))) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

/** The wait a 429 states in RateLimit-Reset (epoch seconds; the PDS sends no Retry-After). */
export const blueskyRetryAfter = (response: ApiResponse): number | null => {
  const reset = Number(response.headers.get('ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : null;
};

/** When a JWT says it expires (its `exp`), or null when it carries none. */
export function jwtExpiry(jwt: string): Date | null {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : null;
  } catch {
    return null;
  }
}

/** Seconds until a JWT's `exp`, or null when it carries none. */
export function jwtExpiresIn(jwt: string): number | null {
  const expiry = jwtExpiry(jwt);
  return expiry ? Math.max(0, Math.floor((expiry.getTime() - Date.now()) / 1000)) : null;
}

export interface XrpcClient {
  query(nsid: string, params: Record<string, string>): Promise<ApiResponse>;
  procedure(nsid: string, body: unknown): Promise<ApiResponse>;
  upload(bytes: Buffer, contentType: string, timeoutMs: number): Promise<ApiResponse>;
}

/** Calls that throw the mapped error unless the PDS answers 2xx. */
export function xrpcClient(fetch: Fetcher, pds: string, accessJwt: string, timeoutMs?: number): XrpcClient {
  const auth = { authorization: `Bearer ${accessJwt}` };
  const settle = (response: ApiResponse) => {
    if (!isSuccess(response)) throw blueskyError(response);
    return response;
  };
  return {
    query: async (nsid, params) =>
      settle(await callApi(fetch, withQuery(`${pds}/xrpc/${nsid}`, params), { headers: auth, timeoutMs, retryAfter: blueskyRetryAfter })),
    procedure: async (nsid, body) =>
      settle(await callApi(fetch, `${pds}/xrpc/${nsid}`, { method: 'POST', headers: auth, json: body, timeoutMs, retryAfter: blueskyRetryAfter })),
    upload: async (bytes, contentType, uploadTimeoutMs) =>
      settle(
        await callApi(fetch, `${pds}/xrpc/com.atproto.repo.uploadBlob`, {
          method: 'POST',
          headers: { ...auth, 'content-type': contentType },
          body: bytes,
          timeoutMs: uploadTimeoutMs,
          retryAfter: blueskyRetryAfter,
        }),
      ),
  };
}

/** refreshSession at the account's PDS: a new access JWT and a new refresh JWT (the old one is spent). */
export function blueskyRefresher(fetch: Fetcher, pds: string, timeoutMs?: number): TokenRefresher {
  return {
    uses: 'refresh_token',
    aheadMs: 60_000,
    async refresh(refreshJwt) {
      const response = await callApi(fetch, `${pds}/xrpc/com.atproto.server.refreshSession`, {
        method: 'POST',
        headers: { authorization: `Bearer ${refreshJwt}` },
        timeoutMs,
      });
      const accessJwt = jsonString(response.json, 'accessJwt');
      if (!isSuccess(response) || !accessJwt) {
        const error = blueskyError(response);
        if (response.status === 429 || response.status >= 500) throw error;
        throw error instanceof TokenExpiredError ? error : new TokenExpiredError(error.message);
      }
      return { accessToken: accessJwt, refreshToken: jsonString(response.json, 'refreshJwt') ?? null, expiresInSeconds: jwtExpiresIn(accessJwt) };
    },
  };
}
