// Calls to a Listmonk server's HTTP API (https://listmonk.app/docs/apis/apis/): JSON bodies,
// an API user's credentials as `Authorization: token <api user>:<token>` (Listmonk 4 and
// later; https://listmonk.app/docs/apis/apis/#authentication), answers as { "data": … },
// refusals as { "message": "…" } with the status, passed on verbatim. Every call goes through
// the guarded client, so the server's address must pass the outbound guard like any host.
import { PlatformError, TokenExpiredError, type PublishableConnection } from '../publisher';
import { callApi, isSuccess, jsonString, type ApiRequest, type ApiResponse, type Fetcher } from '../http';

export function listmonkError(response: ApiResponse): PlatformError {
  const message = jsonString(response.json, 'message') || response.text.trim() || `Listmonk answered HTTP ${response.status}`;
  // 401: unknown user or token; 403: the API user's role lacks the permission.
  if (response.status === 401 || response.status === 403) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface ListmonkClient {
  origin: string;
  /** One call; throws the mapped error unless the status is 2xx. */
  call(method: 'GET' | 'POST' | 'PUT', path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function listmonkClient(fetch: Fetcher, origin: string, credentials: string, timeoutMs?: number): ListmonkClient {
  return {
    origin,
    async call(method, path, request = {}) {
      const response = await callApi(fetch, `${origin}${path}`, {
        timeoutMs,
        ...request,
        method,
        headers: { authorization: `token ${credentials}`, ...request.headers },
      });
      if (!isSuccess(response)) throw listmonkError(response);
      return response;
    },
  };
}

export interface ListmonkAccount {
  origin: string;
  listId: number;
  listName: string;
}

/** The server and list the connect flow stored; options.baseUrl (tests) stands in for the server. */
export function listmonkAccount(connection: PublishableConnection, baseUrl: string | undefined): ListmonkAccount {
  const data = connection.platformData ?? {};
  const origin = baseUrl ?? (typeof data.serverUrl === 'string' ? data.serverUrl : null);
  const listId = Number(data.listId);
  if (!origin || !Number.isInteger(listId) || listId <= 0) {
    throw new TokenExpiredError('No Listmonk server or list is stored for this account; reconnect it to publish.');
  }
  return { origin: origin.replace(/\/+$/, ''), listId, listName: typeof data.listName === 'string' ? data.listName : connection.accountName };
}

/** The campaign's page in Listmonk's admin (a newsletter has no public address until it is sent and archived). */
export const campaignPage = (origin: string, id: string) => `${origin}/admin/campaigns/${id}`;
