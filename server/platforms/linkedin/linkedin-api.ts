// Calls to LinkedIn's versioned REST API (Community Management: Posts, Images, Videos) and the
// mapping of its error body to the publisher's errors.
//
// "All APIs require the request header Linkedin-Version: {Version in YYYYMM format}. All APIs
// require the request header X-Restli-Protocol-Version: 2.0.0"
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api
// Error bodies: { "status": 422, "serviceErrorCode": 100, "code": "…", "message": "…" }; 401 means
// the token expired or was revoked; 429 is LinkedIn's throttle.
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, isSuccess, jsonString, type ApiResponse, type Fetcher } from '../http';

export const LINKEDIN_DEFAULT_BASE_URL = 'https://api.linkedin.com';
/** A version LinkedIn still serves (each one is supported for a year); override with LINKEDIN_API_VERSION. */
export const LINKEDIN_DEFAULT_VERSION = '202605';

export function linkedinError(response: ApiResponse): PlatformError {
  const message = jsonString(response.json, 'message') || `LinkedIn answered HTTP ${response.status}`;
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface LinkedInClient {
  /** A REST call under the base URL; throws the mapped error for a non-2xx answer. */
  call(method: 'GET' | 'POST' | 'DELETE', path: string, json?: unknown): Promise<ApiResponse>;
}

export function linkedinClient(fetch: Fetcher, baseUrl: string, accessToken: string, version: string, timeoutMs?: number): LinkedInClient {
  const headers = {
    authorization: `Bearer ${accessToken}`,
    'linkedin-version': version,
    'x-restli-protocol-version': '2.0.0',
  };
  return {
    async call(method, path, json) {
      const response = await callApi(fetch, `${baseUrl}${path}`, { method, headers, json, timeoutMs });
      if (!isSuccess(response)) throw linkedinError(response);
      return response;
    },
  };
}

/**
 * The author URN: the connection's externalId when it already is one (organization pages are
 * stored as urn:li:organization:…), otherwise a member id.
 */
export function authorUrn(externalId: string): string {
  return externalId.startsWith('urn:li:') ? externalId : `urn:li:person:${externalId}`;
}
