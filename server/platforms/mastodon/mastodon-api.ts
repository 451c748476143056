// Calls to a Mastodon server's REST API (https://docs.joinmastodon.org/api/): Bearer token,
// errors as { "error": "…", "error_description"? } (https://docs.joinmastodon.org/entities/Error/),
// 401 for a revoked token, 429 with X-RateLimit-Reset (an ISO 8601 time) rather than
// Retry-After (https://docs.joinmastodon.org/api/rate-limits/).
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, firstJsonString, type ApiRequest, type ApiResponse, type Fetcher } from '../http';

// read:statuses: the post's counts afterwards (mastodon-insights.ts), private posts included.
export const MASTODON_SCOPES = 'read:accounts read:statuses write:statuses write:media';

/** The wait a 429 states in X-RateLimit-Reset. */
export const mastodonRetryAfter = (response: ApiResponse): number | null => {
  const reset = Date.parse(response.headers.get('x-ratelimit-reset') ?? '');
  return Number.isNaN(reset) ? null : Math.max(0, reset - Date.now());
};

export function mastodonError(response: ApiResponse): PlatformError {
  const message = firstJsonString(response.json, ['error', 'error_description']) || response.text.trim() || `Mastodon answered HTTP ${response.status}`;
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

/** "mastodon.social", "https://mastodon.social/" or "@me@mastodon.social" → "https://mastodon.social"; null when it is not a host name. */
export function instanceOrigin(input: string): string | null {
  let value = input.trim().toLowerCase();
  const handle = /^@?[a-z0-9_.-]+@([a-z0-9.-]+)$/.exec(value);
  if (handle) value = handle[1]!;
  if (!/^https?:\/\//.test(value)) value = `https://${value}`;
  try {
    const url = new URL(value);
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(url.hostname) && url.hostname !== '127.0.0.1') return null;
    return `https://${url.host}`;
  } catch {
    return null;
  }
}

export interface MastodonClient {
  /** One call; throws the mapped error unless the status is 2xx. */
  call(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function mastodonClient(fetch: Fetcher, origin: string, accessToken: string, timeoutMs?: number): MastodonClient {
  return {
    async call(method, path, request = {}) {
      const response = await callApi(fetch, `${origin}${path}`, {
        timeoutMs,
        ...request,
        method,
        headers: { authorization: `Bearer ${accessToken}`, ...request.headers },
        retryAfter: mastodonRetryAfter,
      });
      if (response.status < 200 || response.status >= 300) throw mastodonError(response);
      return response;
    },
  };
}
