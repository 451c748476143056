// Calls to Medium's API v1 (https://github.com/Medium/medium-api-docs, "1. Overview"): JSON under
// https://api.medium.com/v1, the account's integration token as `Authorization: Bearer`, every
// answer in a data envelope ({ data }), a refusal as { errors: [{ message, code }] } (the shape
// Medium's own client reads: github.com/Medium/medium-sdk-go, medium.go `envelope`). A revoked or
// invalid token is 401.
//
// Medium's API is no longer supported by Medium: the documentation repository was archived on
// 2 March 2023 under the warning "The Medium API is no longer supported. We do not recommend using
// it." Tokens issued before then still work; Medium no longer issues new ones
// (docs/decisions.md, "Long-form networks").
import { PlatformError, TokenExpiredError } from '../publisher';
import { apiEndpoint, callApi, isSuccess, jsonAt, jsonString, type AdapterOptions, type ApiRequest, type ApiResponse } from '../http';

export const MEDIUM_DEFAULT_BASE_URL = 'https://api.medium.com';

/** Medium's words for a refused request, verbatim. */
export function mediumErrorText(response: ApiResponse): string {
  const errors = jsonAt(response.json, 'errors');
  if (Array.isArray(errors) && errors.length) {
    const messages = errors.map((e) => jsonString(e, 'message')).filter((m): m is string => Boolean(m?.trim()));
    if (messages.length) return messages.join('; ');
  }
  return response.text.trim() || `Medium answered HTTP ${response.status}`;
}

export function mediumError(response: ApiResponse): PlatformError {
  const message = mediumErrorText(response);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface MediumClient {
  /** One call under /v1; returns the envelope's `data`, or throws the mapped error unless the status is 2xx. */
  call(method: string, path: string, request?: ApiRequest): Promise<unknown>;
}

export function mediumClient(options: AdapterOptions, token: string): MediumClient {
  const { fetch, baseUrl } = apiEndpoint(options, 'MEDIUM_API_BASE_URL', MEDIUM_DEFAULT_BASE_URL);
  return {
    async call(method, path, request = {}) {
      const response = await callApi(fetch, `${baseUrl}/v1${path}`, {
        timeoutMs: options.timeoutMs,
        ...request,
        method,
        headers: { authorization: `Bearer ${token}`, 'accept-charset': 'utf-8', ...request.headers },
      });
      if (!isSuccess(response)) throw mediumError(response);
      return jsonAt(response.json, 'data');
    },
  };
}
