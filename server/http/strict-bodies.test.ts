// Request bodies are validated exactly as sent: no field of any route accepts a value of
// another JSON type ("false" for a boolean, true for a number …), only application/json is
// JSON, and query strings are still converted to the types their schema declares.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { ZCreatePostInput } from '@/server/posts/posts.schemas';
import { allowedTypes, bodyFields, contractRoutes, fillPath, nestAt, typeFits } from '@/server/testing/contract-routes';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();

// Hundreds of requests from one workspace: lift the per-minute budget for this file only.
const savedLimit = process.env.RATE_LIMIT_PER_MINUTE;
beforeAll(() => {
  process.env.RATE_LIMIT_PER_MINUTE = '100000';
});
afterAll(() => {
  if (savedLimit === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
  else process.env.RATE_LIMIT_PER_MINUTE = savedLimit;
});

const MEGABYTE_STRING = 'x'.repeat(1_000_000);
/** One value of every JSON type, and the lookalikes lenient parsers turn into each other. */
const CANDIDATES: unknown[] = ['false', 'true', '1', '', MEGABYTE_STRING, true, false, 0, 1, 1.5, null, [], ['x'], {}, { a: 1 }];

const bodyRoutes = contractRoutes().filter((r) => r.body);

describe('strict bodies', () => {
  it('finds the body routes in the contract document', () => {
    expect(bodyRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /posts', 'PATCH /posts/{id}', 'POST /media/upload-url', 'POST /workspaces']),
    );
  });

  it('refuses a value of the wrong JSON type in every body field of every route with the flat 400 naming it', async () => {
    const { secret } = await createWorkspaceWithKey();
    const failures: string[] = [];
    let checked = 0;
    for (const route of bodyRoutes) {
      const path = fillPath(route, Object.fromEntries(route.pathParams.map((p) => [p, '00000000-0000-4000-8000-000000000000'])));
      // platformSettings' keys are documented per platform but checked by the service, which
      // answers PLATFORM_SETTING_UNKNOWN naming the path (posts' platform-settings tests).
      for (const field of bodyFields(route.body!).filter((f) => !(f.path[0] === 'platformSettings' && f.path.length > 1))) {
        const name = field.path.join('.');
        const wrong = CANDIDATES.filter((v) => !typeFits(field.schema, v));
        await Promise.all(
          wrong.map(async (value) => {
            checked++;
            const res = await api(route.method, path, { key: secret, body: nestAt(field.path, value) });
            const named =
              Array.isArray(res.body?.message) &&
              res.body.message.some((m: string) => m === `${name} is required` || m.startsWith(`${name}:`) || m.startsWith(`${name}.`));
            // The flat body's `error` is its reason phrase, a string.
            const flat = res.body?.statusCode === 400 && (res.body?.error as unknown) === 'Bad Request';
            if (res.status !== 400 || !flat || !named) {
              failures.push(`${route.method} ${route.path} ${name}=${JSON.stringify(value).slice(0, 20)} → ${res.status} ${res.text.slice(0, 160)}`);
            }
          }),
        );
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 60_000);

  it('does not read "false" as true: the post is refused and nothing is written', async () => {
    const { workspace, secret, ok } = await publishingWorkspace();
    const res = await api('POST', '/posts', {
      key: secret,
      body: { content: 'Hello', connectionIds: [ok.linkedin.id], scheduledAt: inMinutes(30), requireApproval: 'false' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: ['requireApproval: Invalid input: expected boolean, received string'], error: 'Bad Request' });
    expect(await db.post.count({ where: { workspaceId: workspace.id } })).toBe(0);
    // The schema the app's tRPC endpoint shares was not loosened either.
    expect(ZCreatePostInput.safeParse({ content: 'x', connectionIds: ['a'], requireApproval: 'false' }).success).toBe(false);
  });

  it('does not read true as a byte count', async () => {
    const { secret } = await createWorkspaceWithKey();
    const res = await api('POST', '/media/upload-url', { key: secret, body: { kind: 'image', contentType: 'image/png', bytes: true } });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(['bytes: Invalid input: expected number, received boolean']);
  });
});

describe('Content-Type', () => {
  let secret: string;
  beforeAll(async () => {
    secret = (await createWorkspaceWithKey()).secret;
  });
  const send = (contentType: string | undefined, body = '{"name":"Typed"}') =>
    api('POST', '/workspaces', { key: secret, rawBody: body, headers: contentType ? { 'content-type': contentType } : {} });

  it('reads application/json, with parameters and in any case', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
      expect((await send(type)).status, type).toBe(201);
    }
  });

  it('answers 415 in the flat shape for anything else, look-alikes included', async () => {
    for (const type of [
      'application/jsonx',
      'application/json-seq',
      'text/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ]) {
      const res = await send(type);
      expect(res.status, String(type)).toBe(415);
      expect(res.body).toEqual({ statusCode: 415, message: 'send the body as JSON with Content-Type: application/json', error: 'Unsupported Media Type' });
    }
  });

  it('refuses bytes that are not UTF-8, and bodies over 1 MiB', async () => {
    const res = await api('POST', '/workspaces', {
      key: secret,
      rawBody: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]) as unknown as string,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.body).toEqual({ statusCode: 400, message: ['body is not valid JSON'], error: 'Bad Request' });
    const big = await send('application/json', JSON.stringify({ name: 'x'.repeat(1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });
});

describe('query strings', () => {
  it('are converted to the declared types, and refused by name when they do not fit', async () => {
    const { secret } = await createWorkspaceWithKey();
    const ok = await api('GET', '/posts?limit=5&page=1', { key: secret });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ page: 1, limit: 5 });
    const bad = await api('GET', '/posts?limit=five', { key: secret });
    expect(bad.status).toBe(400);
    expect(bad.body.message[0]).toMatch(/^limit: /);
    const twice = await api('GET', '/posts?status=draft&status=failed', { key: secret });
    expect(twice.status).toBe(400);
    expect(twice.body.message[0]).toMatch(/^status: /);
  });

  it('every query parameter the document declares is accepted in its written form', async () => {
    const { secret } = await createWorkspaceWithKey();
    const sample = (s: Record<string, any>): string | undefined => {
      if (s.default !== undefined) return String(s.default);
      if (s.enum) return String(s.enum[0]);
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'date') return new Date().toISOString().slice(0, 10);
      if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      const types = allowedTypes(s);
      if (types.has('integer') || types.has('number')) return String(s.minimum ?? 1);
      if (types.has('boolean')) return 'false';
      return undefined;
    };
    for (const route of contractRoutes().filter((r) => r.method === 'GET' && r.pathParams.length === 0 && r.query.length)) {
      const qs = new URLSearchParams(route.query.flatMap((p) => (sample(p.schema) === undefined ? [] : [[p.name, sample(p.schema)!]])));
      const res = await api('GET', `${route.path}?${qs}`, { key: secret });
      // A sampled id names nothing: the route's own not-found is the answer, past validation.
      if (res.status === 404)
        expect(
          route.errorCodes.filter((c) => c.endsWith('_NOT_FOUND')),
          `${route.path}?${qs}`,
        ).toContain(res.body.error.code);
      else expect(res.status, `${route.path}?${qs} → ${res.text.slice(0, 200)}`).toBe(200);
    }
  });
});
