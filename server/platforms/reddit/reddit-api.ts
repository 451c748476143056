// Calls to Reddit's OAuth API (https://github.com/reddit-archive/reddit/wiki/OAuth2,
// https://www.reddit.com/dev/api). Every request carries a descriptive User-Agent, as Reddit's
// API rules require (REDDIT_USER_AGENT). Answers of api_type=json endpoints are
// { "json": { "errors": [[CODE, message, field], …], "data": {…} } }, errors often with HTTP 200.
// Rate limits: X-Ratelimit-Used / -Remaining / -Reset (seconds until the window resets).
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, firstJsonString, isSuccess, jsonAt, retryAfterHeaderMs, type ApiRequest, type ApiResponse, type Fetcher } from '../http';
import { env } from '@/server/config/env';

export const REDDIT_DEFAULT_BASE_URL = 'https://oauth.reddit.com';
export const REDDIT_DEFAULT_OAUTH_BASE_URL = 'https://www.reddit.com/api/v1';
export const REDDIT_DEFAULT_USER_AGENT = 'web:herald:1.0 (self-hosted Herald)';

export const redditUserAgent = (): string => env.redditUserAgent() ?? REDDIT_DEFAULT_USER_AGENT;

/** The wait a 429 asks for: Retry-After when present, else X-Ratelimit-Reset (seconds). */
export function redditRetryAfter(response: ApiResponse): number | null {
  const header = retryAfterHeaderMs(response.headers);
  if (header !== null) return header;
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) && reset >= 0 && response.headers.has('x-ratelimit-reset') ? Math.ceil(reset * 1000) : null;
}

/** Reddit's api_type=json errors, verbatim: "CODE: message" each. */
export function redditJsonErrors(response: ApiResponse): string | null {
  const errors = jsonAt(response.json, 'json', 'errors');
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return errors.map((e) => (Array.isArray(e) ? [e[0], e[1]].filter((part) => typeof part === 'string' && part).join(': ') : JSON.stringify(e))).join('; ');
}

export function redditError(response: ApiResponse): PlatformError | null {
  const listed = redditJsonErrors(response);
  if (isSuccess(response) && !listed) return null;
  const message = listed ?? (firstJsonString(response.json, ['message', 'error', 'explanation']) || `Reddit answered HTTP ${response.status}`);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export const redditBasicAuth = (clientId: string, clientSecret: string) => `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;

export interface RedditClient {
  get(path: string): Promise<ApiResponse>;
  /** POSTs a form; throws the mapped error, json.errors included. */
  post(path: string, form: NonNullable<ApiRequest['form']>): Promise<ApiResponse>;
}

export function redditClient(fetch: Fetcher, baseUrl: string, accessToken: string, timeoutMs?: number): RedditClient {
  const call = async (path: string, form?: ApiRequest['form']) => {
    const response = await callApi(fetch, `${baseUrl}${path}`, {
      headers: { authorization: `bearer ${accessToken}`, 'user-agent': redditUserAgent() },
      form,
      timeoutMs,
      retryAfter: redditRetryAfter,
    });
    const error = redditError(response);
    if (error) throw error;
    return response;
  };
  return { get: (path) => call(path), post: (path, form) => call(path, form) };
}
