// Request bodies on Herald's own server: read from Node's stream (readBodyBytes), with the
// limit applied as the bytes arrive, the rest of an oversized body drained so the keep-alive
// connection serves the next request, and the Web body still safe to touch afterwards.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyBytes, sendWebResponse, toWebRequest } from './node-bridge';

const LIMIT = 64 * 1024;
let server: http.Server;
let port: number;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const request = toWebRequest(req, 'http://localhost');
    const webFirst = req.headers['x-read'] === 'web';
    const bytes = webFirst ? new Uint8Array(await request.arrayBuffer()) : await readBodyBytes(request, LIMIT);
    // Touching the Web body after a direct read ends at once instead of waiting for bytes.
    const after = webFirst ? '' : await request.text();
    const answer = { length: bytes?.byteLength ?? null, sha: bytes ? Buffer.from(bytes).toString('base64').slice(0, 12) : null, after };
    await sendWebResponse(res, Response.json(answer, { status: bytes ? 200 : 413 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

function post(body: Buffer, opts: { chunked?: boolean; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: Record<string, unknown>; socket: unknown }>((resolve, reject) => {
    const req = http.request(
      { port, host: '127.0.0.1', method: 'POST', path: '/', agent, headers: { 'content-type': 'application/octet-stream', ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()), socket: req.socket }));
      },
    );
    req.on('error', reject);
    if (opts.chunked) {
      // Several writes without a Content-Length: Transfer-Encoding: chunked.
      for (let at = 0; at < body.length; at += 16 * 1024) req.write(body.subarray(at, at + 16 * 1024));
      req.end();
    } else req.end(body);
  });
}

describe('readBodyBytes on the node bridge', () => {
  it('reads a body with its length, and a chunked one, byte for byte', async () => {
    const body = Buffer.from(Array.from({ length: 40_000 }, (_, i) => i % 251));
    const expected = body.toString('base64').slice(0, 12);
    expect((await post(body)).body).toEqual({ length: 40_000, sha: expected, after: '' });
    expect((await post(body, { chunked: true })).body).toEqual({ length: 40_000, sha: expected, after: '' });
  });

  it('stops at the limit on a chunked body and keeps the connection for the next request', async () => {
    const first = await post(Buffer.alloc(LIMIT * 3, 1), { chunked: true });
    expect(first.status).toBe(413);
    expect(first.body.length).toBeNull();
    const next = await post(Buffer.from('{"ok":true}'));
    expect(next.status).toBe(200);
    expect(next.body.length).toBe(11);
    // The same keep-alive socket answered both.
    expect(next.socket).toBe(first.socket);
  });

  it('reads from the Web stream when a handler started there', async () => {
    const res = await post(Buffer.from('hello'), { headers: { 'x-read': 'web' } });
    expect(res.body).toEqual({ length: 5, sha: Buffer.from('hello').toString('base64').slice(0, 12), after: '' });
  });

  it('reads any other Request from its Web stream, with the same limit', async () => {
    const small = new Request('http://localhost/', { method: 'POST', body: 'abc' });
    expect(Buffer.from((await readBodyBytes(small, 10))!).toString()).toBe('abc');
    const big = new Request('http://localhost/', { method: 'POST', body: 'x'.repeat(11) });
    expect(await readBodyBytes(big, 10)).toBeNull();
  });
});
