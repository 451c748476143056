// Calls to Hashnode's GraphQL API (https://apidocs.hashnode.com/): one endpoint,
// https://gql.hashnode.com, POST { query, variables }, the account's Personal Access Token in
// the `Authorization` header ("Authentication": generated at hashnode.com/settings/developer).
//
// Errors come in GraphQL's shape, { errors: [{ message, extensions: { code } }] }, most often
// with HTTP 200: UNAUTHENTICATED (a missing or refused token), FORBIDDEN (no right on the
// publication, or one without the plan the API's writes need), BAD_USER_INPUT, NOT_FOUND
// ("Status and Error Codes"). Herald reports the message verbatim; UNAUTHENTICATED asks for a
// reconnect. A 429 with Retry-After is waited out by callApi.
import { PlatformError, TokenExpiredError } from '../publisher';
import { apiEndpoint, callApi, isSuccess, jsonAt, jsonString, type AdapterOptions, type ApiResponse } from '../http';

export const HASHNODE_DEFAULT_BASE_URL = 'https://gql.hashnode.com';

/** Hashnode's words for a refused request: the GraphQL errors' messages, verbatim. */
export function hashnodeErrorText(response: ApiResponse): string {
  const errors = jsonAt(response.json, 'errors');
  if (Array.isArray(errors) && errors.length) {
    const messages = errors.map((e) => jsonString(e, 'message')).filter((m): m is string => Boolean(m?.trim()));
    if (messages.length) return [...new Set(messages)].join('; ');
  }
  return response.text.trim() || `Hashnode answered HTTP ${response.status}`;
}

function errorCode(response: ApiResponse): string | undefined {
  return jsonString(response.json, 'errors', 0, 'extensions', 'code');
}

export function hashnodeError(response: ApiResponse): PlatformError {
  const message = hashnodeErrorText(response);
  if (response.status === 401 || errorCode(response) === 'UNAUTHENTICATED') return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface HashnodeClient {
  /** One GraphQL operation; returns `data`, or throws the mapped error when Hashnode answered with errors. */
  graphql(query: string, variables?: Record<string, unknown>): Promise<unknown>;
}

export function hashnodeClient(options: AdapterOptions, token: string): HashnodeClient {
  const { fetch, baseUrl } = apiEndpoint(options, 'HASHNODE_API_BASE_URL', HASHNODE_DEFAULT_BASE_URL);
  return {
    async graphql(query, variables = {}) {
      const response = await callApi(fetch, baseUrl, {
        timeoutMs: options.timeoutMs,
        method: 'POST',
        headers: { authorization: token },
        json: { query, variables },
      });
      const errors = jsonAt(response.json, 'errors');
      if (!isSuccess(response) || (Array.isArray(errors) && errors.length)) throw hashnodeError(response);
      return jsonAt(response.json, 'data');
    },
  };
}

/** The account and the publications it can write to ("me": MyUser.publications). */
export const ME_QUERY = 'query Me { me { id username name profilePicture publications(first: 20) { edges { node { id title url } } } } }';
