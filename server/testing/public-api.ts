// One line for a test file that speaks HTTP to the public API: a real server around the REST
// handler for the file's lifetime, and a JSON client for it. Every answer is checked against
// the contract document (documented-outcomes.ts): the file fails if the server answered an
// operation, status or error code the document does not list.
import { afterAll, beforeAll, expect } from 'vitest';
import { handlePublicApi } from '@/server/http/rest-handler';
import { apiClient, type ApiCall } from './api-client';
import { startTestServer, type TestServer } from './api-server';
import { undocumentedOutcome } from './documented-outcomes';

export type PublicApi = ApiCall & {
  /** The server's origin, for requests the JSON client cannot make (raw bytes). */
  baseUrl(): string;
};

export interface DocumentedOutcomes {
  /** The REST handler, each answer checked: for test servers of their own and raw requests. */
  handle(req: Request): Promise<Response>;
  /** Checks an answer the test obtained some other way, as the request `req` would have been routed. */
  observe(req: Request, res: Response): Promise<Response>;
}

/**
 * The documented-outcomes check for a test file that cannot use usePublicApi (its own routes
 * on one server, or requests built by hand): the file fails in afterAll on any answer the
 * document does not list.
 */
export function checkDocumentedOutcomes(): DocumentedOutcomes {
  const undocumented = new Set<string>();
  const observe = async (req: Request, res: Response): Promise<Response> => {
    const missing = await undocumentedOutcome(req, res);
    if (missing) undocumented.add(missing);
    return res;
  };
  afterAll(() => {
    expect([...undocumented].sort(), 'answers the contract document does not list (server/http/openapi.ts, meta.errors / errorWhen)').toEqual([]);
  });
  return { observe, handle: async (req) => observe(req, await handlePublicApi(req)) };
}

export function usePublicApi(): PublicApi {
  let server: TestServer | undefined;
  let call: ApiCall | undefined;
  const outcomes = checkDocumentedOutcomes();
  beforeAll(async () => {
    server = await startTestServer({ '/public/v1': outcomes.handle });
    call = apiClient(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });
  const api: ApiCall = (...args) => call!(...args);
  return Object.assign(api, { baseUrl: () => server!.url });
}
