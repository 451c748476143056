// Calls to TikTok's open API v2 and the mapping of its error envelope.
//
// Every answer is { "data": {…}, "error": { "code", "message", "log_id" } }, and a failure can
// come back as HTTP 200 with a code other than "ok", so the code decides, not the status.
// (envelope and codes as in https://developers.tiktok.com/doc/content-posting-api-reference-direct-post)
//   access_token_invalid (401) = reconnect; rate_limit_exceeded (429) = try later.
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, jsonString, type ApiResponse, type Fetcher } from '../http';

export const TIKTOK_DEFAULT_BASE_URL = 'https://open.tiktokapis.com';

export function tiktokError(response: ApiResponse): PlatformError | null {
  const code = jsonString(response.json, 'error', 'code');
  if (code === 'ok' && response.status < 400) return null;
  const message = jsonString(response.json, 'error', 'message') || code || `TikTok answered HTTP ${response.status}`;
  if (code === 'access_token_invalid' || response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface TikTokClient {
  /** POSTs JSON (TikTok's publishing endpoints are all POST); throws the mapped error unless the code is "ok". */
  post(path: string, json?: unknown): Promise<ApiResponse>;
}

export function tiktokClient(fetch: Fetcher, baseUrl: string, accessToken: string, timeoutMs?: number): TikTokClient {
  return {
    async post(path, json) {
      const response = await callApi(fetch, `${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json; charset=UTF-8' },
        json,
        timeoutMs,
      });
      const error = tiktokError(response);
      if (error) throw error;
      return response;
    },
  };
}
