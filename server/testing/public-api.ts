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

export function usePublicApi(): PublicApi {
  let server: TestServer | undefined;
  let call: ApiCall | undefined;
  const undocumented = new Set<string>();
  const observed = async (req: Request): Promise<Response> => {
    const res = await handlePublicApi(req);
    const missing = await undocumentedOutcome(req, res);
    if (missing) undocumented.add(missing);
    return res;
  };
  beforeAll(async () => {
    server = await startTestServer({ '/public/v1': observed });
    call = apiClient(server.url);
  });
  afterAll(async () => {
    await server?.close();
    expect([...undocumented].sort(), 'answers the contract document does not list (server/http/openapi.ts, meta.errors / errorWhen)').toEqual([]);
  });
  const api: ApiCall = (...args) => call!(...args);
  return Object.assign(api, { baseUrl: () => server!.url });
}
