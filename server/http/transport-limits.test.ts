// Sizes and bytes at the edge of HTTP: what Herald answers in the contract's flat shape,
// including what Node's HTTP parser refuses before a request exists (answered by Herald's
// server, server/http/client-error.ts; the test server attaches the same answer), each such
// answer validated against the schema the served document declares for it on every operation.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { GET as openApiDocument } from '@/app/public/v1/openapi.json/route';
import { db } from '@/server/db/client';
import { MAX_AUTHORIZATION_LENGTH, MAX_HTTP_HEADER_BYTES, MAX_URL_BYTES } from '@/server/shared/http-limits';
import { documentValidator } from '@/server/testing/document-validator';
import { createWorkspaceWithKey, uniq } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();

describe('what Herald answers', () => {
  it('a path and query string over the limit: 414 in the flat shape', async () => {
    const { secret } = await createWorkspaceWithKey();
    const res = await api('GET', `/posts?q=${'x'.repeat(MAX_URL_BYTES)}`, { key: secret });
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ statusCode: 414, message: expect.stringContaining(String(MAX_URL_BYTES)), error: 'URI Too Long' });
    // Just under the limit the request is read, and the unknown parameter refused by name.
    const under = await api('GET', `/posts?q=${'x'.repeat(MAX_URL_BYTES - 100)}`, { key: secret });
    expect(under.status).toBe(400);
    expect(under.body.message).toEqual(['q is not allowed']);
  });

  it('an over-long Authorization header: 401 in the flat shape', async () => {
    const res = await api('GET', '/connections', { headers: { authorization: `Bearer sk_live_${'A'.repeat(10_000)}` } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: expect.stringMatching(/Malformed Authorization/), error: 'Unauthorized' });
    const justOver = await api('GET', '/connections', { headers: { authorization: `Bearer ${'x'.repeat(MAX_AUTHORIZATION_LENGTH)}` } });
    expect(justOver.status).toBe(401);
  });

  it('an Idempotency-Key with bytes Node lets through (a tab, Latin-1): 400 VALIDATION_FAILED, nothing written', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    for (const key of ['a\tb', 'caf\u00e9', 'x\u0085y']) {
      const res = await api('POST', '/workspaces', { key: secret, headers: { 'Idempotency-Key': key }, body: { name: 'Keyed' } });
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'Idempotency-Key' });
    }
    expect(await db.workspace.count({ where: { managedById: workspace.id } })).toBe(0);
    const fine = await api('POST', '/workspaces', { key: secret, headers: { 'Idempotency-Key': `${uniq('k')} ~!@#$%^&*()` }, body: { name: 'Keyed' } });
    expect(fine.status).toBe(201);
  });
});

/** Sends raw bytes to the test server; resolves with whatever came back before it closed. */
function rawRequest(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.end(head));
    socket.on('data', (c: Buffer) => chunks.push(c));
    const done = () => resolve(Buffer.concat(chunks).toString('latin1'));
    socket.on('close', done);
    socket.on('error', done); // a reset after the answer is still an answer
  });
}

/** The status and JSON body of a raw answer. */
function parse(answer: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);
  return { status, body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) };
}

/** The contract document as Herald serves it (its route file's handler). */
async function servedDocument(): Promise<Record<string, any>> {
  return (await openApiDocument(new Request('http://localhost/public/v1/openapi.json'))).json();
}

/** Every operation of the document with a request path for it (path parameters at their examples). */
function operations(doc: Record<string, any>): { method: string; template: string; path: string }[] {
  return Object.entries<Record<string, any>>(doc.paths).flatMap(([template, ops]) =>
    Object.entries<any>(ops).map(([method, op]) => {
      const example = (name: string) => (op.parameters ?? []).find((p: any) => p.name === name && p.in === 'path')?.example;
      return {
        method: method.toUpperCase(),
        template,
        path: `/public/v1${template.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(String(example(n))))}`,
      };
    }),
  );
}

describe('what the HTTP parser refuses, answered in the flat shape the document declares', () => {
  // The server usePublicApi starts has the same header limit as `npm start`.
  it(`431 above ${MAX_HTTP_HEADER_BYTES} bytes of headers, on every operation`, async () => {
    const doc = await servedDocument();
    const validator = documentValidator(doc);
    const undeclared: string[] = [];
    for (const op of operations(doc)) {
      const answer = await rawRequest(
        api.baseUrl(),
        `${op.method} ${op.path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'A'.repeat(MAX_HTTP_HEADER_BYTES + 1024)}\r\n\r\n`,
      );
      const { status, body } = parse(answer);
      expect(status, `${op.method} ${op.template}`).toBe(431);
      expect(body).toEqual({
        statusCode: 431,
        message: `The request line and headers are over ${MAX_HTTP_HEADER_BYTES} bytes`,
        error: 'Request Header Fields Too Large',
      });
      const problem = validator.answer(op.method, op.template, status, body);
      if (problem) undeclared.push(problem);
    }
    expect(undeclared).toEqual([]);
  });

  it('400 for a control byte in a header value, its message a list as every flat 400’s, on every operation', async () => {
    const doc = await servedDocument();
    const validator = documentValidator(doc);
    const undeclared: string[] = [];
    for (const op of operations(doc)) {
      const answer = await rawRequest(api.baseUrl(), `${op.method} ${op.path} HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0001b\r\nContent-Length: 0\r\n\r\n`);
      const { status, body } = parse(answer);
      expect(status, `${op.method} ${op.template}`).toBe(400);
      expect(body).toEqual({ statusCode: 400, message: ['The request is not valid HTTP/1.1'], error: 'Bad Request' });
      const problem = validator.answer(op.method, op.template, status, body);
      if (problem) undeclared.push(problem);
    }
    expect(undeclared).toEqual([]);
    // The document names the code that answer stands for on each of them.
    for (const op of operations(doc)) expect(doc.paths[op.template][op.method.toLowerCase()].responses['400'].description).toContain('MALFORMED_REQUEST');
  });
});
