// A local HTTPS stand-in for a platform API, for the adapter tests: it records every request
// (method, path, query, headers, body) and answers each route with replies given by the test,
// usually the recorded platform bodies in <platform>/fixtures/*.json.
//
// Real sockets and real TLS, like server/outbound/test-receiver.ts: the adapters reach it
// through the guarded outbound client, trusting its self-signed certificate and allowing
// 127.0.0.1 explicitly, so the production request path is what the tests exercise.
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createOutboundClient, type OutboundClient } from '@/server/outbound';
import type { Fetcher } from '../http';
import { createSelfSignedCert } from '@/server/testing/self-signed-cert';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** The body as JSON (throws when it is not). */
  json(): any;
  /** The body as an urlencoded form. */
  form(): URLSearchParams;
}

export interface FakeReply {
  /** Holds the answer this long after the request arrived (a network slower than the caller's deadline). */
  delayMs?: number;
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string | Buffer;
}

type Responder = FakeReply | ((request: RecordedRequest) => FakeReply);

interface Route {
  method: string;
  path: string | RegExp;
  replies: Responder[];
  served: number;
}

export interface FakePlatformApi {
  /** https://127.0.0.1:<port> */
  baseUrl: string;
  /** The guarded client's fetch, trusting this server. */
  fetch: Fetcher;
  requests: RecordedRequest[];
  /**
   * Answers `method path` with the replies in order; the last one repeats. A later route for
   * the same method and path replaces the earlier one.
   */
  on(method: string, path: string | RegExp, ...replies: Responder[]): void;
  /** Requests seen for one method and path. */
  calls(method: string, path: string | RegExp): RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

function matches(route: Route, method: string, pathname: string): boolean {
  if (route.method !== method) return false;
  return typeof route.path === 'string' ? route.path === pathname : route.path.test(pathname);
}

function record(method: string, url: URL, headers: IncomingHttpHeaders, body: Buffer): RecordedRequest {
  const text = body.toString('utf8');
  return {
    method,
    path: url.pathname,
    query: url.searchParams,
    headers,
    body,
    text,
    json: () => JSON.parse(text),
    form: () => new URLSearchParams(text),
  };
}

/**
 * `tls`: a certificate the caller made (a benchmark whose process trusts it through
 * NODE_EXTRA_CA_CERTS); otherwise a throwaway one only `fetch` trusts.
 */
export async function startFakePlatformApi(options: { tls?: { key: string; cert: string } } = {}): Promise<FakePlatformApi> {
  let tls = options.tls;
  if (!tls) {
    const made = createSelfSignedCert('herald-fake-platform', ['IP:127.0.0.1']);
    made.remove();
    tls = made;
  }
  const { cert, key } = tls;

  let routes: Route[] = [];
  const requests: RecordedRequest[] = [];

  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      const recorded = record(method, url, req.headers, Buffer.concat(chunks));
      requests.push(recorded);
      const route = [...routes].reverse().find((r) => matches(r, method, url.pathname));
      if (!route) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `no fake route for ${method} ${url.pathname}` }));
        return;
      }
      const responder = route.replies[Math.min(route.served, route.replies.length - 1)]!;
      route.served += 1;
      const reply = typeof responder === 'function' ? responder(recorded) : responder;
      const headers: Record<string, string> = { ...reply.headers };
      let body: string | Buffer = reply.body ?? '';
      if (reply.json !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = JSON.stringify(reply.json);
      }
      const answer = () => {
        if (res.destroyed) return; // the caller gave up waiting
        res.writeHead(reply.status ?? 200, headers);
        res.end(body);
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const client: OutboundClient = createOutboundClient({ ca: cert, allowHosts: ['127.0.0.1'] });

  return {
    baseUrl: `https://127.0.0.1:${port}`,
    fetch: (url, init) => client.fetch(url, init),
    requests,
    on(method, routePath, ...replies) {
      routes = routes.filter((r) => !(r.method === method && String(r.path) === String(routePath)));
      routes.push({ method, path: routePath, replies, served: 0 });
    },
    calls: (method, routePath) =>
      requests.filter((r) => r.method === method && (typeof routePath === 'string' ? r.path === routePath : routePath.test(r.path))),
    reset() {
      routes = [];
      requests.length = 0;
    },
    async close() {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Reads a recorded platform answer from a test's fixtures folder. */
export function fixture(dirname: string, name: string): any {
  return JSON.parse(readFileSync(path.join(dirname, 'fixtures', `${name}.json`), 'utf8'));
}

/** The recorded answer as written, for bodies JSON.parse would alter (int64 ids). */
export function rawFixture(dirname: string, name: string): FakeReply {
  return { headers: { 'content-type': 'application/json' }, body: readFileSync(path.join(dirname, 'fixtures', `${name}.json`), 'utf8') };
}
