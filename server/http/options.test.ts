// OPTIONS on the public API: `Allow` names exactly the methods that answer at that path —
// never HEAD, which the route table does not serve, nor PUT where it serves none — and both hostings (the App Router
// route file and Herald's fast path, one table in server/runtime/api-routes.ts) agree.
import { describe, expect, it } from 'vitest';
import { handlePublicApi } from '@/server/http/rest-handler';
import { restRoutes } from '@/server/http/rest-routes';
import { API_ROUTE_FILES, methodHandler } from '@/server/runtime/api-routes';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { OPTIONS } from '@/app/public/v1/[...path]/route';

const options = (path: string) => new Request(`http://localhost/public/v1${path}`, { method: 'OPTIONS' });
// OPTIONS answers are outside the check (no operation), but every answer goes through it all the same.
const outcomes = checkDocumentedOutcomes();
const allowOf = (res: Response) => res.headers.get('allow')?.split(', ');
const PUT_PATHS = new Set(['/queue/slots', '/posts/{id}/evergreen', '/inbox/{id}/reply']);

describe('OPTIONS', () => {
  it('lists only the methods served at the path', async () => {
    const res = await outcomes.handle(options('/posts'));
    expect(res.status).toBe(204);
    expect(allowOf(res)).toEqual(['GET', 'OPTIONS', 'POST']);
    expect(allowOf(await outcomes.handle(options('/posts/00000000-0000-4000-8000-000000000000')))).toEqual(['DELETE', 'GET', 'OPTIONS', 'PATCH']);
    expect(allowOf(await outcomes.handle(options('/queue/slots')))).toEqual(['OPTIONS', 'PUT']);
    expect(allowOf(await outcomes.handle(options('/posts/00000000-0000-4000-8000-000000000000/evergreen')))).toEqual(['DELETE', 'GET', 'OPTIONS', 'PUT']);
  });

  it('agrees with the route table on every path, and each listed method is routed', async () => {
    for (const route of restRoutes()) {
      const path = route.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      const allow = allowOf(await outcomes.handle(options(path)))!;
      const served = restRoutes()
        .filter((r) => r.path.split('/').length === route.path.split('/').length)
        .map((r) => r.method);
      expect(allow, route.path).toContain(route.method);
      for (const method of allow.filter((m) => m !== 'OPTIONS')) expect(served, `${route.path} ${method}`).toContain(method);
      expect(allow, route.path).not.toContain('HEAD');
      // PUT only where a PUT route is (PUT /queue/slots, PUT /posts/{id}/evergreen, PUT /inbox/{id}/reply), never advertised elsewhere.
      if (!PUT_PATHS.has(route.path)) expect(allow, route.path).not.toContain('PUT');
    }
  });

  it('answers no route for a path without one', async () => {
    const res = await outcomes.handle(options('/no-such-thing'));
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('is the same handler on both hostings', async () => {
    expect(OPTIONS).toBe(handlePublicApi);
    const fastPath = methodHandler(API_ROUTE_FILES.rest, 'OPTIONS')!;
    expect(allowOf(await outcomes.observe(options('/webhooks'), await fastPath(options('/webhooks'))))).toEqual(['GET', 'OPTIONS', 'POST']);
  });
});
