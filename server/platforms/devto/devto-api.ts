// Calls to DEV's API, the Forem API v1 (https://developers.forem.com/api/v1): the account's
// API key in the `api-key` header and `accept: application/vnd.forem.api-v1+json` (the v1
// routes; https://developers.forem.com/api/v1 "Authentication"). Errors come as
// { "error": "…", "status": 422 } (401: { "error": "unauthorized", "status": 401 }), the
// error a sentence or, from older servers, a list of sentences. DEV throttles with 429 and a
// Retry-After header, which callApi waits out.
import { PlatformError, TokenExpiredError } from '../publisher';
import { apiEndpoint, callApi, isSuccess, jsonAt, type AdapterOptions, type ApiRequest, type ApiResponse } from '../http';

export const DEVTO_DEFAULT_BASE_URL = 'https://dev.to';
export const DEVTO_ACCEPT = 'application/vnd.forem.api-v1+json';

/** DEV's own words for a refused request, verbatim. */
export function devtoErrorText(response: ApiResponse): string {
  const error = jsonAt(response.json, 'error');
  if (typeof error === 'string' && error.trim()) return error.trim();
  if (Array.isArray(error) && error.length) return error.map(String).join(', ');
  return response.text.trim() || `DEV answered HTTP ${response.status}`;
}

export function devtoError(response: ApiResponse): PlatformError {
  const message = devtoErrorText(response);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface DevtoClient {
  /** One call; throws the mapped error unless the status is 2xx. */
  call(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function devtoClient(options: AdapterOptions, apiKey: string): DevtoClient {
  const { fetch, baseUrl } = apiEndpoint(options, 'DEVTO_API_BASE_URL', DEVTO_DEFAULT_BASE_URL);
  return {
    async call(method, path, request = {}) {
      const response = await callApi(fetch, `${baseUrl}${path}`, {
        timeoutMs: options.timeoutMs,
        ...request,
        method,
        headers: { 'api-key': apiKey, accept: DEVTO_ACCEPT, ...request.headers },
      });
      if (!isSuccess(response)) throw devtoError(response);
      return response;
    },
  };
}
