// Calls to a Lemmy instance's HTTP API v3 (https://join-lemmy.org/api/, the LemmyHttp client
// of lemmy-js-client 0.19): JSON bodies, the login token as `Authorization: Bearer <jwt>`,
// refusals as { "error": "<code>" } (e.g. "couldnt_find_community", "not_logged_in",
// "incorrect_login", "rate_limit_error"), passed on verbatim. Every call goes through the
// guarded client, so an instance's address must pass the outbound guard like any other host.
import { PlatformError, TokenExpiredError } from '../publisher';
import { callApi, firstJsonString, isSuccess, type ApiRequest, type ApiResponse, type Fetcher } from '../http';

/** Error codes that mean the login token is no longer accepted. */
const SIGNED_OUT = new Set(['not_logged_in', 'incorrect_login', 'site_ban', 'banned']);

export function lemmyError(response: ApiResponse): PlatformError {
  const code = firstJsonString(response.json, ['error', 'message']);
  const message = code || response.text.trim() || `Lemmy answered HTTP ${response.status}`;
  if (response.status === 401 || (code && SIGNED_OUT.has(code))) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface LemmyClient {
  origin: string;
  /** One call; throws the mapped error unless the status is 2xx. */
  call(method: 'GET' | 'POST', path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function lemmyClient(fetch: Fetcher, origin: string, jwt: string | null, timeoutMs?: number): LemmyClient {
  return {
    origin,
    async call(method, path, request = {}) {
      const response = await callApi(fetch, `${origin}${path}`, {
        timeoutMs,
        ...request,
        method,
        headers: { ...(jwt ? { authorization: `Bearer ${jwt}` } : {}), ...request.headers },
      });
      if (!isSuccess(response)) throw lemmyError(response);
      return response;
    },
  };
}

/**
 * "technology", "!technology@lemmy.world", "technology@lemmy.world" or
 * "https://lemmy.world/c/technology" → the name GET /api/v3/community takes ("technology" or
 * "technology@lemmy.world"); null when it is none of these.
 */
export function communityName(input: string): string | null {
  const value = input.trim();
  const url = /^https?:\/\/([^/]+)\/c\/([a-z0-9_]+)(@[a-z0-9.-]+)?\/?$/i.exec(value);
  if (url) return `${url[2]}${url[3] ?? `@${url[1]}`}`.toLowerCase();
  const name = /^!?([a-z0-9_]{1,50})(@[a-z0-9.-]+\.[a-z0-9-]+)?$/i.exec(value);
  return name ? `${name[1]}${name[2] ?? ''}`.toLowerCase() : null;
}
