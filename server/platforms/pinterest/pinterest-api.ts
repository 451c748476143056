// Calls to Pinterest's API v5 and the mapping of its errors.
//
// Errors are { "code": <int>, "message": "<text>" } with the HTTP status
// (https://developers.pinterest.com/docs/api/v5/ "Errors"); 401 means the token is no longer
// accepted. Token: POST /v5/oauth/token with HTTP Basic client authentication
// (https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/).
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, firstJsonString, isSuccess, type ApiResponse, type Fetcher } from '../http';

export const PINTEREST_DEFAULT_BASE_URL = 'https://api.pinterest.com';

export function pinterestError(response: ApiResponse): PlatformError | null {
  if (isSuccess(response)) return null;
  const message = firstJsonString(response.json, ['message', 'error_description', 'error']) || `Pinterest answered HTTP ${response.status}`;
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export const basicAuth = (clientId: string, clientSecret: string) => `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;

export interface PinterestClient {
  get(path: string): Promise<ApiResponse>;
  post(path: string, json: unknown): Promise<ApiResponse>;
}

export function pinterestClient(fetch: Fetcher, baseUrl: string, accessToken: string, timeoutMs?: number): PinterestClient {
  const call = async (path: string, json?: unknown) => {
    const response = await callApi(fetch, `${baseUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}` }, json, timeoutMs });
    const error = pinterestError(response);
    if (error) throw error;
    return response;
  };
  return { get: (path) => call(path), post: (path, json) => call(path, json) };
}
