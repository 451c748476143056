// Calls to Kick's public API (https://docs.kick.com, OpenAPI at
// https://api.kick.com/swagger/v1/doc.json) and the mapping of its errors.
//
// Every answer is { data, message }; a refusal's `message` is passed on verbatim (the OAuth
// server's refusals are { error }). 401 means the token is no longer accepted (withAccessToken
// then refreshes it once). Kick documents no rate-limit headers; a 429 with Retry-After is waited
// out by callApi, any other is reported in Kick's words.
import { PlatformError, TokenExpiredError } from '../publisher';
import { bearerClient, firstJsonString, type ApiResponse, type BearerClient, type Fetcher } from '../http';

export const KICK_DEFAULT_BASE_URL = 'https://api.kick.com/public/v1';
/** id.kick.com's OAuth 2.1 endpoints: /authorize and /token (https://docs.kick.com/getting-started/generating-tokens-oauth2-flow). */
export const KICK_DEFAULT_OAUTH_BASE_URL = 'https://id.kick.com/oauth';

/** Kick's words for a refusal: `message`, then the OAuth server's `error`. */
export function kickErrorMessage(response: ApiResponse): string {
  return firstJsonString(response.json, ['message', 'error']) || response.text.trim() || `Kick answered HTTP ${response.status}`;
}

export function kickError(response: ApiResponse): PlatformError {
  const message = kickErrorMessage(response);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export type KickClient = BearerClient;

export function kickClient(fetch: Fetcher, baseUrl: string, accessToken: string, timeoutMs?: number): KickClient {
  return bearerClient(fetch, baseUrl, accessToken, kickError, { timeoutMs });
}
