// Ids in paths: whatever the client writes in `{id}` — broken percent-encoding, NUL, a
// kilobyte of text — names nothing, and every such route answers its resource's not-found
// in the envelope. Covers every route with a path parameter, read from the router, and the
// Next.js layer in front of the facade (proxy.ts), which must let such paths through.
import { getRouteRegex } from 'next/dist/shared/lib/router/utils/route-regex.js';
import { getRouteMatcher } from 'next/dist/shared/lib/router/utils/route-matcher.js';
import { NextRequest } from 'next/server.js';
import { describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';
import { decodePathSegment, repairPercentEncoding } from '@/server/http/percent-encoding';
import { restRoutes } from '@/server/http/rest-routes';
import { contractRoutes, fillPath, sampleValue } from '@/server/testing/contract-routes';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();

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

  it('lets Next decode every path once repaired, to the segment as written', () => {
    for (const route of idRoutes) {
      for (const id of BROKEN) {
        const raw = `/public/v1${fillPath(route, Object.fromEntries(route.pathParams.map((p) => [p, id])))}`;
        expect(() => nextMatcher(raw), raw).toThrow(); // what answered a plain-text 500
        const params = nextMatcher(repairPercentEncoding(raw)) as { path: string[] };
        expect(params.path.join('/')).toBe(raw.replace('/public/v1/', ''));
      }
    }
  });

  it('repairs only what Next cannot decode, and the facade reads both forms alike', () => {
    expect(repairPercentEncoding('/public/v1/posts/abc')).toBe('/public/v1/posts/abc');
    expect(repairPercentEncoding('/public/v1/posts/a%20b')).toBe('/public/v1/posts/a%20b');
    expect(repairPercentEncoding('/public/v1/posts/%ZZ/targets')).toBe('/public/v1/posts/%25ZZ/targets');
    for (const id of BROKEN) expect(decodePathSegment(repairPercentEncoding(id))).toBe(decodePathSegment(id));
  });

  it('proxy.ts rewrites a broken path (query kept) and passes every other request through', () => {
    const broken = proxy(new NextRequest('http://localhost:3000/public/v1/posts/%ED%A0%80/targets?limit=1'));
    expect(broken.headers.get('x-middleware-rewrite')).toBe('http://localhost:3000/public/v1/posts/%25ED%25A0%2580/targets?limit=1');
    const fine = proxy(new NextRequest('http://localhost:3000/public/v1/posts/00000000-0000-4000-8000-000000000000'));
    expect(fine.headers.get('x-middleware-rewrite')).toBeNull();
    expect(fine.headers.get('x-middleware-next')).toBe('1');
  });
});
