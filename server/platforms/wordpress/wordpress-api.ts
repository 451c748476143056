// Calls to a WordPress site's REST API (https://developer.wordpress.org/rest-api/): every route
// under {site}/wp-json/wp/v2, authenticated with the user's application password as HTTP Basic
// (https://developer.wordpress.org/rest-api/using-the-rest-api/authentication/#basic-authentication-with-application-passwords:
// "Application Passwords … can be passed along to REST API requests served over https:// using
// Basic Auth"). Errors come as { code, message, data: { status, … } }
// (https://developer.wordpress.org/rest-api/using-the-rest-api/global-parameters/ and each
// reference page's error responses); a refused password is 401 (`incorrect_password`,
// `rest_not_logged_in`), which asks for a reconnect; so does a WordPress.com token refused.
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, isSuccess, jsonString, type ApiRequest, type ApiResponse, type Fetcher } from '../http';

/** WordPress's words for a refused request: its `message`, verbatim. */
export function wordpressErrorText(response: ApiResponse): string {
  const message = jsonString(response.json, 'message');
  if (message?.trim()) return message.trim();
  return response.text.trim().slice(0, 500) || `WordPress answered HTTP ${response.status}`;
}

/**
 * WordPress.com's API host refuses a revoked or unknown OAuth token with these codes (in `error`
 * on its own routes, `code` on wp/v2), whatever the status (https://developer.wordpress.com/docs/oauth2/).
 */
const TOKEN_REFUSED = new Set(['invalid_token', 'authorization_required']);

export function wordpressError(response: ApiResponse): PlatformError {
  const message = wordpressErrorText(response);
  const code = jsonString(response.json, 'code') ?? jsonString(response.json, 'error');
  if (response.status === 401 || (code && TOKEN_REFUSED.has(code))) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

/** HTTP Basic for a username and an application password (WordPress ignores the spaces it shows the password with). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export interface WordpressClient {
  /** One call to {apiRoot}{path}; throws the mapped error unless the status is 2xx. */
  call(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
  /** The same call, its response given back whatever the status (for refusals a caller reads, such as `term_exists`). */
  raw(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
}

/** The wp/v2 root of a self-hosted site: {site}/wp-json/wp/v2. */
export const selfHostedApiRoot = (siteUrl: string) => `${siteUrl.replace(/\/+$/, '')}/wp-json/wp/v2`;

/** A client of the wp/v2 routes under apiRoot (a self-hosted site's, or WordPress.com's for one site). */
export function wordpressClient(fetch: Fetcher, apiRoot: string, authorization: string, timeoutMs?: number): WordpressClient {
  const raw: WordpressClient['raw'] = (method, path, request = {}) =>
    callApi(fetch, `${apiRoot.replace(/\/+$/, '')}${path}`, {
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

export type WordpressPlatform = 'wordpress' | 'wordpress_com';

interface StoredConnection {
  accessToken: string | null;
  platformData?: Readonly<Record<string, unknown>>;
}

/**
 * One way into WordPress's wp/v2 API: the same routes, payloads and errors, reached at a
 * self-hosted site with an application password or through WordPress.com's API host with an
 * OAuth token. The publisher and the reconciler take one.
 */
export interface WordpressApi {
  platform: WordpressPlatform;
  /** The wp/v2 root and the Authorization header a connection publishes with; options.baseUrl stands in for the host in tests. */
  endpoint(connection: StoredConnection, baseUrl: string | undefined): { apiRoot: string; authorization: string };
}

/** A self-hosted site: platformData.siteUrl and username, stored at connect, and the application password. */
export const SELF_HOSTED_WORDPRESS: WordpressApi = {
  platform: 'wordpress',
  endpoint(connection, baseUrl) {
    const data = connection.platformData ?? {};
    const site = baseUrl ?? (typeof data.siteUrl === 'string' ? data.siteUrl : null);
    const username = typeof data.username === 'string' ? data.username : null;
    if (!site || !username) throw new TokenExpiredError('No WordPress site is stored for this account; reconnect it to publish.');
    if (!connection.accessToken) throw new TokenExpiredError('No WordPress application password is stored for this account; reconnect it to publish.');
    return { apiRoot: selfHostedApiRoot(site), authorization: basicAuthorization(username, connection.accessToken) };
  },
};
