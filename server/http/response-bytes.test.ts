// Recorded responses through the node bridge (what Herald's own server and the test servers
// run): the bytes go out once with their length, and what later layers change on the Response
// itself (the request id added after the handler returned, a status) is what the client gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRequestId } from '@/server/observability/request-id';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { bytesResponse, jsonResponse, knownResponse, utf8Bytes } from './response-bytes';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    '/json': (req) => withRequestId(req, async () => jsonResponse({ hello: 'wörld' }, 201, { 'X-RateLimit-Limit': '100' })),
    '/empty': (req) => withRequestId(req, async () => bytesResponse(null, 204, {})),
    '/plain': () => Promise.resolve(new Response('streamed', { headers: { 'content-type': 'text/plain' } })),
  });
});
afterAll(() => server.close());

describe('recorded responses', () => {
  it('are recorded, with their Content-Length, and only when built here', () => {
    const r = jsonResponse({ a: 1 }, 200);
    expect(knownResponse(r)?.body?.toString()).toBe('{"a":1}');
    expect(r.headers.get('content-length')).toBe('7');
    expect(knownResponse(new Response('x'))).toBeUndefined();
  });

  it('writes pieces of text as one UTF-8 buffer, characters of every width included', () => {
    const parts = ['{"a":', '"wörld 🚀 \\u0000"', '', ',"b":[1,2]}'];
    expect(utf8Bytes(parts).equals(Buffer.from(parts.join('')))).toBe(true);
    expect(utf8Bytes([]).length).toBe(0);
  });

  it('reach the client with the headers set after the handler returned, in one body of its length', async () => {
    const res = await fetch(`${server.url}/json`, { headers: { 'X-Request-Id': 'bridge-1' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe('bridge-1');
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ hello: 'wörld' });
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(res.headers.get('transfer-encoding')).toBeNull();

    const head = await fetch(`${server.url}/json`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(await head.text()).toBe('');

    const empty = await fetch(`${server.url}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await (await fetch(`${server.url}/plain`)).text()).toBe('streamed');
  });
});
