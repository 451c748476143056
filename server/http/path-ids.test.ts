// Ids in paths: whatever the client writes in `{id}` — broken percent-encoding, NUL, a
// kilobyte of text — names nothing, and every such route answers its resource's not-found
// in the envelope. Covers every route with a path parameter, read from the router, and the
// Next.js layer in front of the facade (proxy.ts), which must let such paths through.
import { getRouteRegex } from 'next/dist/shared/lib/router/utils/route-regex.js';
import { getRouteMatcher } from 'next/dist/shared/lib/router/utils/route-matcher.js';
import { NextRequest } from 'next/server.js';
import { describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';
import { decodesCleanly, ORIGINAL_PATH_HEADER, UNDECODABLE_PATH_ROUTE } from '@/server/http/percent-encoding';
import { handleUndecodablePath } from '@/server/http/rest-handler';
import { restRoutes } from '@/server/http/rest-routes';
import { contractRoutes, fillPath, sampleValue } from '@/server/testing/contract-routes';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { checkDocumentedOutcomes, usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
const outcomes = checkDocumentedOutcomes();

/** Written exactly like this in the URL. */
const BROKEN = ['%ZZ', '%', '%C0%AE', '%ED%A0%80', 'abc%', '%E2%82'];
const ODD = ['%00', '%25ZZ', 'not-a-uuid', '00000000-0000-4000-8000-00000000000g', 'x'.repeat(1000), '%F0%9F%98%80', '%E2%80%8F'];

const idRoutes = restRoutes().filter((r) => r.pathParams.length > 0);
const documented = new Map(contractRoutes().map((r) => [`${r.method} ${r.path}`, r]));

describe('ids in paths', () => {
  it('covers every route with a path parameter', () => {
    expect(idRoutes.length).toBeGreaterThanOrEqual(10);
    for (const route of idRoutes)
      expect(
        route.meta.errors?.some((c) => c.endsWith('_NOT_FOUND')),
        route.path,
      ).toBe(true);
  });

  it.each(idRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s answers its not-found for ids that name nothing', async (_name, route) => {
    const { secret } = await createWorkspaceWithKey();
    const notFound = route.meta.errors!.filter((c) => c.endsWith('_NOT_FOUND'));
    const contract = documented.get(`${route.method} ${route.path}`);
    const body = contract?.body;
    // Required query parameters get a valid value, so the id is what the route judges.
    const query = new URLSearchParams((contract?.query ?? []).filter((q) => q.required).map((q) => [q.name, String(sampleValue(q.schema))])).toString();
    for (const id of [...BROKEN, ...ODD]) {
      const path = fillPath(route, Object.fromEntries(route.pathParams.map((p) => [p, id]))) + (query ? `?${query}` : '');
      const res = await api(route.method, path, { key: secret, ...(body ? { body: sampleValue(body) } : {}) });
      expect(res.status, `${path} → ${res.text.slice(0, 200)}`).toBe(404);
      expect(notFound, `${path} → ${res.text.slice(0, 200)}`).toContain(res.body?.error?.code);
      expect(Object.keys(res.body.error).sort()).toEqual(['code', 'field', 'message']);
    }
  });
});

describe('the Next.js layer in front of the facade', () => {
  const nextMatcher = getRouteMatcher(getRouteRegex('/public/v1/[...path]'));

  it('sends what Next cannot decode to a static route with the path as written, and passes every other request through', () => {
    for (const route of idRoutes) {
      for (const id of BROKEN) {
        const raw = `/public/v1${fillPath(route, Object.fromEntries(route.pathParams.map((p) => [p, id])))}`;
        expect(() => nextMatcher(raw), raw).toThrow(); // what answered a plain-text 500
        expect(decodesCleanly(raw)).toBe(false);
        const res = proxy(new NextRequest(`http://localhost:3000${raw}?limit=1`));
        expect(res.headers.get('x-middleware-rewrite'), raw).toBe(`http://localhost:3000${UNDECODABLE_PATH_ROUTE}?limit=1`);
        expect(res.headers.get(`x-middleware-request-${ORIGINAL_PATH_HEADER}`), raw).toBe(raw);
      }
    }
    for (const fine of ['/public/v1/posts/00000000-0000-4000-8000-000000000000', '/public/v1/posts/a%20b']) {
      const res = proxy(new NextRequest(`http://localhost:3000${fine}`));
      expect(res.headers.get('x-middleware-rewrite')).toBeNull();
      expect(res.headers.get('x-middleware-next')).toBe('1');
    }
  });

  it('answers the original path through the facade, and nothing outside the API', async () => {
    const { secret } = await createWorkspaceWithKey();
    const call = (original: string | null, init: RequestInit = {}) => {
      const headers = new Headers({ authorization: `Bearer ${secret}`, ...(original ? { [ORIGINAL_PATH_HEADER]: original } : {}) });
      // Checked against the document as the path the client wrote.
      const asWritten = new Request(`http://localhost${original ?? UNDECODABLE_PATH_ROUTE}`, { method: init.method ?? 'GET' });
      return handleUndecodablePath(new Request(`http://localhost${UNDECODABLE_PATH_ROUTE}`, { ...init, headers })).then((res) =>
        outcomes.observe(asWritten, res),
      );
    };
    for (const id of BROKEN) {
      const res = await call(`/public/v1/posts/${id}`);
      expect(res.status, id).toBe(404);
      expect((await res.json()).error.code).toBe('POST_NOT_FOUND');
    }
    const cancel = await call('/public/v1/posts/%ZZ/publish', { method: 'POST' });
    expect((await cancel.json()).error.code).toBe('POST_NOT_FOUND');
    for (const elsewhere of [null, '/api/trpc/x', '/public/v1']) {
      const res = await call(elsewhere);
      expect((await res.json()).error.code, String(elsewhere)).toBe('ROUTE_NOT_FOUND');
    }
  });
});
