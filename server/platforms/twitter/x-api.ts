// Calls to the X API v2 with an OAuth 2.0 user token, and the mapping of its error body.
//
// Errors are problem documents: { "title", "detail", "type", "status" }, and for invalid
// requests also "errors": [{ "message", "parameters" }], whose message is the precise one
// (response schema in https://docs.x.com/x-api/posts/creation-of-a-post).
// 401 = the token is no longer accepted; 429 = rate limited.
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, firstJsonString, isSuccess, type ApiRequest, type ApiResponse, type Fetcher, type JsonPath } from '../http';

export const X_DEFAULT_BASE_URL = 'https://api.x.com';

/** Where an X error body puts its message, the most precise first. */
export const X_ERROR_KEYS: readonly JsonPath[] = [['errors', 0, 'message'], 'detail', 'title'];

export function xErrorMessage(response: ApiResponse): string {
  return firstJsonString(response.json, X_ERROR_KEYS) || `X answered HTTP ${response.status}`;
}

/**
 * The wait a 429 states in x-rate-limit-reset (epoch seconds of the window's end; X sends no
 * Retry-After: https://docs.x.com/fundamentals/rate-limits). Null when absent.
 */
export const xRetryAfter = (response: ApiResponse): number | null => {
  const reset = Number(response.headers.get('x-rate-limit-reset'));
  return response.headers.has('x-rate-limit-reset') && Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : null;
};

export function xError(response: ApiResponse): PlatformError {
  const message = xErrorMessage(response);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface XClient {
  call(path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function xClient(fetch: Fetcher, baseUrl: string, accessToken: string, timeoutMs?: number): XClient {
  return {
    async call(path, request = {}) {
      const response = await callApi(fetch, `${baseUrl}${path}`, {
        timeoutMs,
        ...request,
        headers: { authorization: `Bearer ${accessToken}`, ...request.headers },
      });
      if (!isSuccess(response)) throw xError(response);
      return response;
    },
  };
}
