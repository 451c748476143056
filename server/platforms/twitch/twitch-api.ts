// Calls to Twitch's Helix API (https://dev.twitch.tv/docs/api/) and the mapping of its errors.
//
// Every request carries the app's Client-Id and the user's token as a Bearer
// (https://dev.twitch.tv/docs/api/get-started/). A refusal is { error, status, message }
// (e.g. { "error": "Bad Request", "status": 400, "message": "The parameter \"broadcaster_id\" was
// malformed..." }); its `message` is passed on verbatim. 401 means the token is no longer
// accepted (withAccessToken then refreshes it once). Rate limits
// (https://dev.twitch.tv/docs/api/guide/#twitch-rate-limits) are a token bucket reported in the
// Ratelimit-Limit, Ratelimit-Remaining and Ratelimit-Reset headers, the last an epoch time in
// seconds when the bucket is full again; a 429 says no more until then, so that is the wait.
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, firstJsonString, isSuccess, retryAfterHeaderMs, type ApiRequest, type ApiResponse, type Fetcher } from '../http';

export const TWITCH_DEFAULT_BASE_URL = 'https://api.twitch.tv/helix';
/** id.twitch.tv's OAuth 2.0 endpoints: /authorize and /token (https://dev.twitch.tv/docs/authentication/getting-tokens-oauth/). */
export const TWITCH_DEFAULT_OAUTH_BASE_URL = 'https://id.twitch.tv/oauth2';

/** How long a 429 asks to wait: Retry-After if a proxy set one, else until Ratelimit-Reset. */
export function twitchRetryAfter(response: ApiResponse): number | null {
  const header = retryAfterHeaderMs(response.headers);
  if (header !== null) return header;
  const reset = Number(response.headers.get('ratelimit-reset'));
  return response.headers.has('ratelimit-reset') && Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : null;
}

/** Twitch's words for a refusal: `message`, then `error`. */
export function twitchErrorMessage(response: ApiResponse): string {
  return firstJsonString(response.json, ['message', 'error']) || response.text.trim() || `Twitch answered HTTP ${response.status}`;
}

export function twitchError(response: ApiResponse): PlatformError {
  const message = twitchErrorMessage(response);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface TwitchClient {
  /** One Helix call; throws the mapped error unless the status is 2xx. */
  call(method: 'GET' | 'POST', path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function twitchClient(fetch: Fetcher, baseUrl: string, clientId: string, accessToken: string, timeoutMs?: number): TwitchClient {
  return {
    async call(method, path, request = {}) {
      const response = await callApi(fetch, `${baseUrl}${path}`, {
        timeoutMs,
        retryAfter: twitchRetryAfter,
        ...request,
        method,
        headers: { authorization: `Bearer ${accessToken}`, 'client-id': clientId, ...request.headers },
      });
      if (!isSuccess(response)) throw twitchError(response);
      return response;
    },
  };
}
