// Calls to a Ghost site's Admin API (https://docs.ghost.org/admin-api/): every request under
// {site}/ghost/api/admin/, with `Accept-Version: v5.0` and `Authorization: Ghost {token}`.
//
// Token authentication (https://docs.ghost.org/admin-api/#token-authentication): the Admin API
// key is "{id}:{secret}"; Herald signs a JWT itself for each call: header { alg: HS256, kid:
// id, typ: JWT }, payload { iat, exp (at most 5 minutes later), aud: "/admin/" }, signed with
// the secret decoded from hex. Errors come as { errors: [{ message, context, type }] }
// (https://docs.ghost.org/admin-api/#errors); a refused key is 401 (UnauthorizedError).
import { createHmac } from 'node:crypto';
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, isSuccess, jsonAt, jsonString, type ApiRequest, type ApiResponse, type Fetcher } from '../http';

export const GHOST_ACCEPT_VERSION = 'v5.0';
/** Ghost refuses a token that lives longer than five minutes. */
const TOKEN_SECONDS = 5 * 60;

/** An Admin API key as Ghost shows it: a 24-character id, a colon, a 64-character hex secret. */
export function parseAdminKey(key: string): { id: string; secret: Buffer } | null {
  const match = /^([0-9a-f]{24}):([0-9a-f]{64})$/i.exec(key.trim());
  return match ? { id: match[1]!, secret: Buffer.from(match[2]!, 'hex') } : null;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The short-lived HS256 token Ghost's Admin API takes, signed with the key's secret. */
export function ghostToken(adminKey: string, now = Date.now()): string {
  const key = parseAdminKey(adminKey);
  if (!key) throw new TokenExpiredError('The stored Ghost Admin API key is not in Ghost’s id:secret form; reconnect the site.');
  const iat = Math.floor(now / 1000);
  const unsigned = `${base64url({ alg: 'HS256', kid: key.id, typ: 'JWT' })}.${base64url({ iat, exp: iat + TOKEN_SECONDS, aud: '/admin/' })}`;
  return `${unsigned}.${createHmac('sha256', key.secret).update(unsigned).digest('base64url')}`;
}

/** Ghost's words for a refusal: the first error's message and its context, verbatim. */
export function ghostErrorText(response: ApiResponse): string {
  const first = jsonAt(response.json, 'errors', 0);
  const message = jsonString(first, 'message');
  const context = jsonString(first, 'context');
  if (message) return context && context !== message ? `${message} ${context}` : message;
  return response.text.trim() || `Ghost answered HTTP ${response.status}`;
}

export function ghostError(response: ApiResponse): PlatformError {
  const message = ghostErrorText(response);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface GhostClient {
  /** One call to {site}/ghost/api/admin{path}; throws the mapped error unless the status is 2xx. */
  call(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function ghostClient(fetch: Fetcher, siteUrl: string, adminKey: string, timeoutMs?: number): GhostClient {
  return {
    async call(method, path, request = {}) {
      const response = await callApi(fetch, `${siteUrl.replace(/\/+$/, '')}/ghost/api/admin${path}`, {
        timeoutMs,
        ...request,
        method,
        // A fresh token per call: a publish with several uploads can outlast one.
        headers: { authorization: `Ghost ${ghostToken(adminKey)}`, 'accept-version': GHOST_ACCEPT_VERSION, ...request.headers },
      });
      if (!isSuccess(response)) throw ghostError(response);
      return response;
    },
  };
}

/** The site a connection publishes to (platformData.siteUrl, stored at connect); options.baseUrl stands in for it in tests. */
export function ghostSite(platformData: Readonly<Record<string, unknown>> | undefined, baseUrl: string | undefined): string {
  const site = baseUrl ?? (typeof platformData?.siteUrl === 'string' ? platformData.siteUrl : null);
  if (!site) throw new TokenExpiredError('No Ghost site is stored for this account; reconnect it to publish.');
  return site.replace(/\/+$/, '');
}
