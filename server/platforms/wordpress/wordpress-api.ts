// Calls to a WordPress site's REST API (https://developer.wordpress.org/rest-api/): every route
// under {site}/wp-json/wp/v2, authenticated with the user's application password as HTTP Basic
// (https://developer.wordpress.org/rest-api/using-the-rest-api/authentication/#basic-authentication-with-application-passwords:
// "Application Passwords … can be passed along to REST API requests served over https:// using
// Basic Auth"). Errors come as { code, message, data: { status, … } }
// (https://developer.wordpress.org/rest-api/using-the-rest-api/global-parameters/ and each
// reference page's error responses); a refused password is 401 (`incorrect_password`,
// `rest_not_logged_in`), which asks for a reconnect.
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, isSuccess, jsonString, type ApiRequest, type ApiResponse, type Fetcher } from '../http';

/** WordPress's words for a refused request: its `message`, verbatim. */
export function wordpressErrorText(response: ApiResponse): string {
  const message = jsonString(response.json, 'message');
  if (message?.trim()) return message.trim();
  return response.text.trim().slice(0, 500) || `WordPress answered HTTP ${response.status}`;
}

export function wordpressError(response: ApiResponse): PlatformError {
  const message = wordpressErrorText(response);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

/** HTTP Basic for a username and an application password (WordPress ignores the spaces it shows the password with). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export interface WordpressClient {
  /** One call to {site}/wp-json/wp/v2{path}; throws the mapped error unless the status is 2xx. */
  call(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
  /** The same call, its response given back whatever the status (for refusals a caller reads, such as `term_exists`). */
  raw(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function wordpressClient(fetch: Fetcher, siteUrl: string, authorization: string, timeoutMs?: number): WordpressClient {
  const raw: WordpressClient['raw'] = (method, path, request = {}) =>
    callApi(fetch, `${siteUrl.replace(/\/+$/, '')}/wp-json/wp/v2${path}`, {
      timeoutMs,
      ...request,
      method,
      headers: { authorization, ...request.headers },
    });
  return {
    raw,
    async call(method, path, request) {
      const response = await raw(method, path, request);
      if (!isSuccess(response)) throw wordpressError(response);
      return response;
    },
  };
}

/** The site and credentials a connection publishes with (platformData.siteUrl and username, stored at connect); options.baseUrl stands in for the site in tests. */
export function wordpressSite(
  connection: { accessToken: string | null; platformData?: Readonly<Record<string, unknown>> },
  baseUrl: string | undefined,
): { siteUrl: string; authorization: string } {
  const data = connection.platformData ?? {};
  const site = baseUrl ?? (typeof data.siteUrl === 'string' ? data.siteUrl : null);
  const username = typeof data.username === 'string' ? data.username : null;
  if (!site || !username) throw new TokenExpiredError('No WordPress site is stored for this account; reconnect it to publish.');
  if (!connection.accessToken) throw new TokenExpiredError('No WordPress application password is stored for this account; reconnect it to publish.');
  return { siteUrl: site.replace(/\/+$/, ''), authorization: basicAuthorization(username, connection.accessToken) };
}
