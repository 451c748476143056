// One line for a test file that speaks HTTP to the public API: a real server around the REST
// handler for the file's lifetime, and a JSON client for it.
import { afterAll, beforeAll } from 'vitest';
import { handlePublicApi } from '@/server/http/rest-handler';
import { apiClient, type ApiCall } from './api-client';
import { startTestServer, type TestServer } from './api-server';

export function usePublicApi(): ApiCall {
  let server: TestServer | undefined;
  let call: ApiCall | undefined;
  beforeAll(async () => {
    server = await startTestServer({ '/public/v1': handlePublicApi });
    call = apiClient(server.url);
  });
  afterAll(() => server?.close());
  return (...args) => call!(...args);
}
