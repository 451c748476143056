// Both hostings answer the same: Herald's own server (the API on its fast path, what `npm
// start` and the image run) and `next start` (the App Router route handlers, what a serverless
// host runs), on one database. Every request below goes to both, and the answers must match in
// status, headers and body — except what differs per request (date, request id, the rate-limit
// count) and the framing (the fast path sends the handler's Content-Length where Next may
// re-chunk the same bytes).
// Also: what Node's HTTP parser refuses is answered in the error catalogue's flat shape by
// Herald's server, not with Node's empty body.
import net from 'node:net';
import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './test';

const seed = () => JSON.parse(process.env.HERALD_SEED ?? '{}') as { apiKey: string };
const routeHandlers = () => process.env.E2E_ROUTE_HANDLERS_URL!;
const PER_REQUEST = new Set(['date', 'x-request-id', 'ratelimit', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function ask(
  request: APIRequestContext,
  base: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; data?: string } = {},
): Promise<Answer> {
  const res = await request.fetch(`${base}${path}`, { method, headers: init.headers, data: init.data, maxRedirects: 0, failOnStatusCode: false });
  const headers = Object.fromEntries(Object.entries(res.headers()).filter(([k]) => !PER_REQUEST.has(k)));
  return { status: res.status(), headers, body: method === 'HEAD' ? '' : await res.text() };
}

test('Herald’s server takes the fast path; next start serves the route handlers', async ({ request, baseURL }) => {
  expect((await (await request.get(`${baseURL}/api/health`)).json()).http).toEqual({ server: 'herald', apiFastPath: true });
  expect((await (await request.get(`${routeHandlers()}/api/health`)).json()).http).toEqual({ server: 'next', apiFastPath: false });
});

test('both hostings give the same answers, errors and edge cases included', async ({ request, baseURL }) => {
  const auth = { Authorization: `Bearer ${seed().apiKey}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const cases: [string, string, { headers?: Record<string, string>; data?: string }?][] = [
    ['GET', '/public/v1/connections', { headers: auth }],
    ['GET', '/public/v1/posts?limit=3', { headers: auth }],
    ['GET', '/public/v1/posts?limit=500', { headers: auth }],
    ['GET', '/public/v1/posts'],
    ['GET', '/public/v1/posts', { headers: { Authorization: 'Bearer sk_live_nope' } }],
    ['GET', '/public/v1/no-such-route', { headers: auth }],
    ['GET', '/public/v1/posts/00000000-0000-4000-8000-000000000000', { headers: auth }],
    ['GET', '/public/v1/posts/%ZZ', { headers: auth }],
    ['GET', '/public/v1/posts/', { headers: auth }],
    ['GET', '/public/v1', { headers: auth }],
    ['HEAD', '/public/v1/connections', { headers: auth }],
    ['OPTIONS', '/public/v1/posts'],
    ['OPTIONS', '/public/v1/mcp'],
    ['POST', '/public/v1/posts', { headers: { ...auth, 'Content-Type': 'text/plain' }, data: 'hello' }],
    ['POST', '/public/v1/posts', { headers: json, data: '{not json' }],
    // Over the body limit, declared and streamed: a 413, and the connection stays usable for what follows.
    ['POST', '/public/v1/posts', { headers: json, data: `{"content":"${'x'.repeat(1_100_000)}"}` }],
    ['POST', '/public/v1/posts', { headers: json, data: '{"content":""}' }],
    ['DELETE', '/public/v1/openapi.json'],
    ['GET', '/public/v1/openapi.json'],
    ['GET', '/public/v1/mcp'],
    ['GET', '/public/v1/mcp/setup'],
    ['POST', '/public/v1/mcp', { headers: json, data: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }],
    ['GET', '/.well-known/oauth-authorization-server'],
    ['GET', '/.well-known/oauth-protected-resource/public/v1/mcp'],
    ['POST', '/oauth/token', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: 'grant_type=password' }],
    ['GET', '/oauth/token'],
  ];
  for (const [method, path, init] of cases) {
    const fast = await ask(request, baseURL!, method, path, init);
    const next = await ask(request, routeHandlers(), method, path, init);
    const label = `${method} ${path}`;
    expect(fast.status, label).toBe(next.status);
    expect(fast.headers, label).toEqual(next.headers);
    // The document names the server it was fetched from; everything else is byte for byte.
    expect(fast.body.replaceAll(baseURL!, 'BASE'), label).toBe(next.body.replaceAll(routeHandlers(), 'BASE'));
  }
});

/** Sends raw bytes and reads the whole answer (the server closes after a refusal). */
function raw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

test('what the HTTP parser refuses is answered in the flat error shape, then the connection closes', async ({ baseURL }) => {
  const huge = await raw(baseURL!, `GET /public/v1/posts HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
  expect(huge).toMatch(/^HTTP\/1\.1 431 /);
  expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).toEqual({
    statusCode: 431,
    message: 'The request line and headers are over 16384 bytes',
    error: 'Request Header Fields Too Large',
  });
  const broken = await raw(baseURL!, 'GET /public/v1/posts HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n');
  expect(broken).toMatch(/^HTTP\/1\.1 400 /);
  // Every flat 400 lists its messages (the document's ValidationError).
  expect(JSON.parse(broken.slice(broken.indexOf('\r\n\r\n') + 4))).toEqual({
    statusCode: 400,
    message: ['The request is not valid HTTP/1.1'],
    error: 'Bad Request',
  });
  const garbage = await raw(baseURL!, 'HELLO THERE\r\n\r\n');
  expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
});
