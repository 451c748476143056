// Calls to Dribbble's API v2 (https://developer.dribbble.com/v2/) and the mapping of its errors.
//
// A refusal is { message } with, for invalid fields (422), errors: [{ attribute, message }]
// (https://developer.dribbble.com/v2/#client-errors); Herald passes them on verbatim as
// "message: attribute message; …". 401 means the token is no longer accepted: Dribbble grants no
// refresh token, so the account must be reconnected. Rate limits
// (https://developer.dribbble.com/v2/#rate-limiting): 60 requests a minute and 1,440 a day per
// user, told in X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (UTC epoch
// seconds); over the limit is 429, waited out until the reset when that is near.
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, retryAfterHeaderMs, type ApiRequest, type ApiResponse, type Fetcher } from '../http';

export const DRIBBBLE_DEFAULT_BASE_URL = 'https://api.dribbble.com/v2';
/** dribbble.com's OAuth endpoints: /authorize and /token (https://developer.dribbble.com/v2/oauth/). */
export const DRIBBBLE_DEFAULT_OAUTH_BASE_URL = 'https://dribbble.com/oauth';

export function dribbbleRetryAfter(response: ApiResponse): number | null {
  const header = retryAfterHeaderMs(response.headers);
  if (header !== null) return header;
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  return response.headers.has('x-ratelimit-reset') && Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : null;
}

/** Dribbble's words for a refusal: its message, then each invalid field's. */
export function dribbbleErrorMessage(response: ApiResponse): string {
  const message =
    firstJsonString(response.json, ['message', 'error_description', 'error']) || response.text.trim() || `Dribbble answered HTTP ${response.status}`;
  const errors = jsonAt(response.json, 'errors');
  if (!Array.isArray(errors) || errors.length === 0) return message;
  const fields = errors.map((e) => [jsonString(e, 'attribute'), jsonString(e, 'message')].filter(Boolean).join(' ')).filter(Boolean);
  return fields.length ? `${message}: ${fields.join('; ')}` : message;
}

export function dribbbleError(response: ApiResponse): PlatformError {
  const message = dribbbleErrorMessage(response);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface DribbbleClient {
  /** One call; throws the mapped error unless the status is 2xx. */
  call(method: 'GET' | 'POST', path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function dribbbleClient(fetch: Fetcher, baseUrl: string, accessToken: string, timeoutMs?: number): DribbbleClient {
  return {
    async call(method, path, request = {}) {
      const response = await callApi(fetch, `${baseUrl}${path}`, {
        timeoutMs,
        retryAfter: dribbbleRetryAfter,
        ...request,
        method,
        headers: { authorization: `Bearer ${accessToken}`, ...request.headers },
      });
      if (!isSuccess(response)) throw dribbbleError(response);
      return response;
    },
  };
}
