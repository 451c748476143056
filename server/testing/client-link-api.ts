// A test server with the public API and the no-login client-link routes (hosted connect,
// review, OAuth callback), as the app serves them, plus a small client for the latter.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { handleClientLinkApi, handleConnectCallback, type ClientLinkHandlerOptions } from '@/server/http/client-link-handler';
import { apiClient, type ApiCall } from './api-client';
import { startTestServer, type TestServer } from './api-server';
import { checkDocumentedOutcomes } from './public-api';

export interface RawResponse {
  status: number;
  headers: Headers;
  // Tests read whichever shape the route answers.
  body: any;
}

export interface ClientLinkApi {
  api: ApiCall;
  /** A request to a path outside /public/v1 (e.g. `/public/connect/<token>`). */
  raw(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string>; address?: string }): Promise<RawResponse>;
  origin(): string;
}

export function useClientLinkApi(options: () => ClientLinkHandlerOptions = () => ({})): ClientLinkApi {
  let server: TestServer | undefined;
  let call: ApiCall | undefined;
  const outcomes = checkDocumentedOutcomes();
  beforeAll(async () => {
    server = await startTestServer({
      '/public/v1': outcomes.handle,
      '/public/connect': (req) => handleClientLinkApi(req, options()),
      '/public/review': (req) => handleClientLinkApi(req, options()),
      '/public/report': (req) => handleClientLinkApi(req, options()),
      '/connect/callback': (req) => handleConnectCallback(req, options()),
    });
    call = apiClient(server.url);
  });
  afterAll(() => server?.close());
  return {
    api: ((...args) => call!(...args)) as ApiCall,
    origin: () => server!.url,
    async raw(method, path, opts = {}) {
      // A fresh address per call unless the test names one, so only throttling tests hit the limit.
      const address = opts.address ?? `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;
      const headers: Record<string, string> = { 'x-forwarded-for': address, ...(opts.headers ?? {}) };
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${server!.url}${path}`, { method, headers, body, redirect: 'manual' });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.status, headers: res.headers, body: parsed };
    },
  };
}
