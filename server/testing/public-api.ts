// One line for a test file that speaks HTTP to the public API: a real server around the REST
// handler for the file's lifetime, and a JSON client for it.
import { afterAll, beforeAll } from 'vitest';
import { handlePublicApi } from '@/server/http/rest-handler';
import { apiClient, type ApiCall } from './api-client';
import { startTestServer, type TestServer } from './api-server';

export type PublicApi = ApiCall & {
  /** The server's origin, for requests the JSON client cannot make (raw bytes). */
  baseUrl(): string;
};

export function usePublicApi(): PublicApi {
  let server: TestServer | undefined;
  let call: ApiCall | undefined;
  beforeAll(async () => {
    server = await startTestServer({ '/public/v1': handlePublicApi });
    call = apiClient(server.url);
  });
  afterAll(() => server?.close());
  const api: ApiCall = (...args) => call!(...args);
  return Object.assign(api, { baseUrl: () => server!.url });
}
