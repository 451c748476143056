// Calls to Tumblr's API v2 (https://www.tumblr.com/docs/en/api/v2) and the mapping of its errors.
//
// Every answer is { meta: { status, msg }, response, errors? }; a refusal's errors array holds
// { title, code, detail? } (https://www.tumblr.com/docs/en/api/v2#response-format and "Errors and
// Error Subcodes" of the NPF create route). Its words are passed on verbatim: the first error's
// detail, else its title, else meta.msg. 401 means the access token is no longer accepted
// (withAccessToken then refreshes it once). The API requires a consistent User-Agent
// (https://www.tumblr.com/docs/en/api/v2#request-user-agent). OAuth 2.0 tokens:
// https://www.tumblr.com/docs/en/api/v2#oauth2-authorization.
import { PlatformError, TokenExpiredError } from '../publisher';
import { bearerClient, firstJsonString, type ApiResponse, type BearerClient, type Fetcher } from '../http';

export const TUMBLR_DEFAULT_BASE_URL = 'https://api.tumblr.com';
export const TUMBLR_DEFAULT_AUTHORIZE_URL = 'https://www.tumblr.com/oauth2/authorize';
/** One value on every request, as the API asks. */
export const TUMBLR_USER_AGENT = 'Herald';

/** Tumblr's words for a refusal: errors[0].detail, errors[0].title, then meta.msg. */
export function tumblrErrorMessage(response: ApiResponse): string {
  return (
    firstJsonString(response.json, [['errors', 0, 'detail'], ['errors', 0, 'title'], ['meta', 'msg'], 'error_description', 'error']) ||
    response.text.trim() ||
    `Tumblr answered HTTP ${response.status}`
  );
}

export function tumblrError(response: ApiResponse): PlatformError {
  const message = tumblrErrorMessage(response);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export type TumblrClient = BearerClient;

export function tumblrClient(fetch: Fetcher, baseUrl: string, accessToken: string, timeoutMs?: number): TumblrClient {
  return bearerClient(fetch, baseUrl, accessToken, tumblrError, { timeoutMs, headers: { 'user-agent': TUMBLR_USER_AGENT } });
}
