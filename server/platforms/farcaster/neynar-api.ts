// Calls to Neynar's Farcaster API (https://docs.neynar.com/reference): JSON over HTTPS with the
// deployment's API key in the x-api-key header. A signer_uuid is paired with the key that made
// it ("can't use a uuid made with a different API key", https://docs.neynar.com/reference/publish-cast),
// so one key serves every Farcaster connection of this Herald. A refusal is an ErrorRes
// { message, code?, property?, status? } (the 400/403/404/500 answers of each operation): its
// message is passed on verbatim, with the field it names. 429 is Neynar's rate limit
// (https://docs.neynar.com/reference/rate-limits): callApi waits out a stated Retry-After, and
// what remains is reported as a rate limit.
import { env } from '@/server/config/env';
import { PlatformError } from '../publisher';
import { apiEndpoint, callApi, isSuccess, jsonString, withQuery, type AdapterOptions, type ApiResponse, type Fetcher } from '../http';

export const NEYNAR_DEFAULT_BASE_URL = 'https://api.neynar.com';

export interface NeynarOptions extends AdapterOptions {
  /** Replaces NEYNAR_API_KEY. */
  apiKey?: string;
}

/** Neynar's words for a refusal: its message, and the field it names where it names one. */
export function neynarErrorMessage(response: ApiResponse): string {
  const message = jsonString(response.json, 'message') ?? (response.text.trim().slice(0, 300) || `Neynar answered HTTP ${response.status}`);
  const property = jsonString(response.json, 'property');
  return property && !message.includes(property) ? `${message} (${property})` : message;
}

export function neynarError(response: ApiResponse): PlatformError {
  return new PlatformError(neynarErrorMessage(response), { status: response.status });
}

export interface NeynarClient {
  get(path: string, query: Record<string, string | number | boolean | undefined>): Promise<unknown>;
  post(path: string, body: unknown): Promise<unknown>;
}

export function neynarClient(fetch: Fetcher, baseUrl: string, apiKey: string, timeoutMs?: number): NeynarClient {
  const headers = { 'x-api-key': apiKey };
  const answer = (response: ApiResponse) => {
    if (!isSuccess(response)) throw neynarError(response);
    return response.json;
  };
  return {
    get: async (path, query) => answer(await callApi(fetch, withQuery(`${baseUrl}${path}`, query), { headers, timeoutMs })),
    post: async (path, body) => answer(await callApi(fetch, `${baseUrl}${path}`, { method: 'POST', headers, json: body, timeoutMs })),
  };
}

/** The client one call uses: the options first, then NEYNAR_API_BASE_URL and NEYNAR_API_KEY. */
export function neynarFor(options: NeynarOptions): NeynarClient {
  const { fetch, baseUrl } = apiEndpoint(options, 'NEYNAR_API_BASE_URL', NEYNAR_DEFAULT_BASE_URL);
  const apiKey = options.apiKey ?? env.neynarApiKey();
  if (!apiKey) throw new PlatformError('NEYNAR_API_KEY is not set on this Herald: Farcaster cannot be reached', { status: 503 });
  return neynarClient(fetch, baseUrl, apiKey, options.timeoutMs);
}
