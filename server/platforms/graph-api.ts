// Calls to Meta's Graph APIs (Facebook Pages, Instagram, Threads) and the mapping of their
// error object to the publisher's errors.
//
// Error format and codes: https://developers.facebook.com/docs/graph-api/guides/error-handling
//   { "error": { "message", "type", "code", "error_subcode", "is_transient", "fbtrace_id" } }
//   190 (and 102) = the access token expired or was revoked; 4, 17, 32, 613 = throttled
//   (app, user, page, and per-hour call limits); 1, 2 = temporary downtime; 12 = the call is
//   deprecated at this version (e.g. the Recommendation node from v22.0).
import { PlatformError, RetiredCallError, TokenExpiredError } from './publisher';
import { callApi, isSuccess, jsonAt, pollUntil, type ApiResponse, type Fetcher } from './http';

const EXPIRED_CODES = new Set([102, 190]);
/** A 401 with one of these is a throttle, not a dead token. */
const THROTTLED_CODES = new Set([4, 17, 32, 613]);
/** "(#12) … is deprecated for versions v… and higher". */
const DEPRECATED_CODE = 12;

export type GraphParams = Record<string, string | number | boolean | undefined>;
export type GraphObject = Record<string, unknown>;

export function graphError(response: ApiResponse, platformName: string): PlatformError {
  const error = jsonAt(response.json, 'error') as { message?: unknown; code?: unknown } | undefined;
  const message = typeof error?.message === 'string' && error.message ? error.message : `${platformName} answered HTTP ${response.status}`;
  const code = typeof error?.code === 'number' ? error.code : Number(error?.code);
  if (EXPIRED_CODES.has(code) || (response.status === 401 && !THROTTLED_CODES.has(code))) return new TokenExpiredError(message);
  if (code === DEPRECATED_CODE) return new RetiredCallError(message);
  return new PlatformError(message, { status: response.status });
}

export interface GraphClient {
  get(path: string, params?: GraphParams): Promise<GraphObject>;
  post(path: string, params: GraphParams): Promise<GraphObject>;
  /** Deletes a node (a comment); Graph answers { success: true }. */
  delete(path: string): Promise<GraphObject>;
}

/**
 * A Graph client for one base URL and token. The token travels in the Authorization header
 * (which Graph accepts) so it never lands in a URL that might be logged.
 */
export function graphClient(fetch: Fetcher, baseUrl: string, accessToken: string, platformName: string, timeoutMs?: number): GraphClient {
  const headers = { authorization: `Bearer ${accessToken}` };
  async function send(method: 'GET' | 'POST' | 'DELETE', path: string, params: GraphParams): Promise<GraphObject> {
    const url = new URL(`${baseUrl}/${path.replace(/^\//, '')}`);
    if (method !== 'POST') {
      for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const response = await callApi(fetch, url.toString(), {
      method,
      headers,
      form: method === 'POST' ? params : undefined,
      timeoutMs,
    });
    if (!isSuccess(response) || jsonAt(response.json, 'error') !== undefined) throw graphError(response, platformName);
    return (response.json ?? {}) as GraphObject;
  }
  return {
    get: (path, params = {}) => send('GET', path, params),
    post: (path, params) => send('POST', path, params),
    delete: (path) => send('DELETE', path, {}),
  };
}

/** The id in a Graph answer; a success without one is a broken answer, not a post. */
export function requireId(answer: GraphObject, field: string, platformName: string): string {
  const value = answer[field];
  if (typeof value === 'string' && value) return value;
  if (typeof value === 'number') return String(value);
  throw new PlatformError(`${platformName} accepted the request but returned no ${field}`);
}

/**
 * Where a media container reports its processing (Instagram: status_code, with the reason in
 * status; Threads: status, with the reason in error_message). The values are the same:
 * IN_PROGRESS, FINISHED, PUBLISHED, ERROR, EXPIRED.
 */
export interface ContainerStatusFields {
  status: string;
  /** The platform's reason for ERROR or EXPIRED, passed on verbatim. */
  reason: string;
}

/**
 * Waits until a media container may be published: checked at once, then polled. ERROR and
 * EXPIRED are refusals with the platform's reason. Still processing after the last poll is a
 * refusal that says nothing was published: the container is abandoned, and publishing the
 * post again builds a new one.
 */
export async function waitForContainer(
  graph: GraphClient,
  containerId: string,
  fields: ContainerStatusFields,
  polling: { intervalMs: number; attempts: number },
  platformName: string,
): Promise<void> {
  const check = async (): Promise<true | undefined> => {
    const container = await graph.get(containerId, { fields: `${fields.status},${fields.reason}` });
    const status = container[fields.status];
    if (status === 'FINISHED' || status === 'PUBLISHED') return true;
    if (status === 'ERROR' || status === 'EXPIRED') {
      const reason = container[fields.reason];
      throw new PlatformError(typeof reason === 'string' && reason ? reason : `Media container ${String(status)}`);
    }
    return undefined;
  };
  if (await check()) return;
  if (await pollUntil(polling, check)) return;
  throw new PlatformError(
    `${platformName} was still processing the media after ${Math.round((polling.intervalMs * polling.attempts) / 1000)} s; nothing was published`,
  );
}
