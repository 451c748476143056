// Calls to the VK API (https://dev.vk.com/ru/api/api-requests): POST https://api.vk.com/method/
// <method> with the parameters as a form and `v` the API version; the token goes in the
// Authorization header ("in the access_token parameter or the Authorization header",
// https://dev.vk.com/ru/api/access-token/getting-started), never in an address. VK answers a refusal with HTTP 200 and
// { error: { error_code, error_msg, request_params } } (https://dev.vk.com/ru/reference/errors);
// its error_msg is passed on verbatim. Code 5 (authorization failed) means the token is no
// longer accepted: withAccessToken refreshes it once. Code 6 (too many requests per second) is
// a refusal before anything was done, so it is waited out and sent again; 9 (flood control)
// and 29 (the method's rate limit) are reported as rate limits.
import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, type ApiResponse, type Fetcher } from '../http';

export const VK_DEFAULT_BASE_URL = 'https://api.vk.com/method';
/** VK ID: the consent page (/authorize), the token endpoint (/oauth2/auth) and the user (/oauth2/user_info). */
export const VK_ID_DEFAULT_BASE_URL = 'https://id.vk.com';
export const VK_API_VERSION = '5.199';

/** Authorization failed: the token expired, was revoked, or belongs to another app. */
const AUTH_FAILED = 5;
/** Too many requests per second (three a second for a user token). */
const TOO_MANY_PER_SECOND = 6;
/** Flood control and the method's own rate limit. */
const RATE_LIMITED = new Set([9, 29]);
/** How long a "too many requests per second" refusal is waited out, and how often. */
const PER_SECOND_WAIT_MS = 1_000;
const PER_SECOND_RETRIES = 2;

/** The VK error of an answer, or null when it carries none. */
export function vkErrorOf(json: unknown): { code: number; message: string } | null {
  const error = jsonAt(json, 'error');
  if (!error || typeof error !== 'object') return null;
  return { code: Number(jsonString(error, 'error_code')), message: jsonString(error, 'error_msg') ?? 'VK refused the request' };
}

export function vkError(response: ApiResponse): PlatformError {
  const error = vkErrorOf(response.json);
  if (!error) {
    const message = firstJsonString(response.json, ['error_description', 'error']) || response.text.trim() || `VK answered HTTP ${response.status}`;
    if (response.status === 401) return new TokenExpiredError(message);
    return new PlatformError(message, { status: response.status });
  }
  if (error.code === AUTH_FAILED) return new TokenExpiredError(error.message);
  if (error.code === TOO_MANY_PER_SECOND || RATE_LIMITED.has(error.code)) return new PlatformError(error.message, { status: 429 });
  return new PlatformError(error.message);
}

export interface VkClient {
  /** One method call; resolves to its `response`, throws the mapped error otherwise. */
  call(method: string, params?: Record<string, string | number | boolean | undefined>): Promise<unknown>;
}

export function vkClient(fetch: Fetcher, baseUrl: string, accessToken: string, timeoutMs?: number): VkClient {
  return {
    async call(method, params = {}) {
      for (let attempt = 0; ; attempt++) {
        const response = await callApi(fetch, `${baseUrl}/${method}`, {
          timeoutMs,
          headers: { authorization: `Bearer ${accessToken}` },
          form: { ...params, v: VK_API_VERSION },
        });
        const error = vkErrorOf(response.json);
        if (error?.code === TOO_MANY_PER_SECOND && attempt < PER_SECOND_RETRIES) {
          await sleep(PER_SECOND_WAIT_MS);
          continue;
        }
        if (!isSuccess(response) || error) throw vkError(response);
        return jsonAt(response.json, 'response');
      }
    },
  };
}
