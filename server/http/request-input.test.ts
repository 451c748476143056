// Query and path parameters as the REST facade reads them (request-input.ts): strings
// converted to the type the route's schema declares, here and nowhere else. No input schema
// converts by itself (`z.coerce`), which turned an absent `limit` into "expected number,
// received NaN". Every numeric query parameter of every route, read from the contract
// document: absent, an optional one takes its default and a required one is refused as
// required; a value that is not a number is refused by name. Every answer is checked
// against the document (usePublicApi).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SCOPES } from '@/server/auth/scopes';
import { appRouter } from '@/server/root';
import { contractRoutes, type ContractParameter, type ContractRoute } from '@/server/testing/contract-routes';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { queryInput } from './request-input';

const api = usePublicApi();

type Def = Record<string, any> & { type: string };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def: Def } } | undefined)?._zod?.def;

/** Paths of every schema under `schema` that converts its input by itself (z.coerce.*). */
function coercing(schema: unknown, path: string, out: string[], depth = 0): void {
  const def = defOf(schema);
  if (!def || depth > 15) return;
  if (def.coerce) out.push(path);
  const walk = (child: unknown, suffix = '') => coercing(child, `${path}${suffix}`, out, depth + 1);
  if (def.type === 'object') for (const [k, v] of Object.entries<unknown>(def.shape ?? {})) walk(v, `.${k}`);
  for (const key of ['innerType', 'in', 'out', 'element', 'keyType', 'valueType', 'left', 'right', 'catchall'] as const) if (def[key]) walk(def[key]);
  for (const option of def.options ?? []) walk(option);
  if (def.type === 'lazy') walk(def.getter());
}

describe('converting query strings', () => {
  it('converts to the declared type, leaves what does not fit as written, and adds nothing absent', () => {
    const schema = z.strictObject({ limit: z.number().int().default(50), flag: z.boolean().optional(), q: z.string().optional() });
    expect(queryInput(new URLSearchParams('limit=20&flag=false&q=7'), schema)).toEqual({ limit: 20, flag: false, q: '7' });
    expect(queryInput(new URLSearchParams('limit=abc&flag=yes'), schema)).toEqual({ limit: 'abc', flag: 'yes' });
    expect(queryInput(new URLSearchParams(''), schema)).toEqual({});
    expect(schema.parse(queryInput(new URLSearchParams(''), schema))).toEqual({ limit: 50 });
  });

  it('is done by the facade alone: no procedure’s input converts by itself (z.coerce)', () => {
    const out: string[] = [];
    const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { inputs: unknown[] } }> } })._def.procedures;
    for (const [name, proc] of Object.entries(procedures)) for (const input of proc._def.inputs) coercing(input, name, out);
    expect(out, 'declare z.number() (or z.boolean(), z.date()): server/http/request-input.ts converts query and path strings').toEqual([]);
  });
});

/** The message(s) of an error answer and the field it names, whichever shape it has. */
function problem(body: any): { text: string; field?: string } {
  if (body?.error && typeof body.error === 'object') return { text: String(body.error.message), field: body.error.field };
  return { text: Array.isArray(body?.message) ? body.message.join(' | ') : String(body?.message ?? '') };
}

const namesParam = (body: any, name: string): boolean => {
  const { text, field } = problem(body);
  return field === name || text.split(' | ').some((m) => m.startsWith(`${name} `) || m.startsWith(`${name}:`));
};

/** A request path with every path parameter and every required query parameter at its example, `query` applied on top. */
function pathFor(route: ContractRoute, query: Record<string, string | undefined>): string {
  const example = (name: string) => (route.operation.parameters as { name: string; example?: unknown }[]).find((p) => p.name === name)?.example;
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(example(name))));
  const params = new URLSearchParams();
  for (const p of route.query) {
    const value = p.name in query ? query[p.name] : p.required ? String(example(p.name)) : undefined;
    if (value !== undefined) params.set(p.name, value);
  }
  return params.size ? `${path}?${params}` : path;
}

const numeric = contractRoutes().flatMap((route) =>
  route.query
    .filter((p) => p.schema.type === 'integer' || p.schema.type === 'number')
    .map((param) => [`${route.method} ${route.path} ?${param.name}`, route, param] as const),
);

describe('numeric query parameters of every route', () => {
  it('are read from the document (the crawl, analytics and list routes among them)', () => {
    const names = numeric.map(([name]) => name);
    for (const expected of ['GET /crawl/pages ?limit', 'GET /metrics/daily ?limit', 'GET /posts ?limit', 'GET /posts ?page', 'GET /analytics/top-posts ?limit'])
      expect(names).toContain(expected);
    for (const [, route] of numeric) expect(route.method).toBe('GET');
  });

  it('GET /crawl/pages without limit: refused as required, naming limit (not "expected number, received NaN")', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
    const res = await api('GET', '/crawl/pages?siteId=5b0f8f8e-2c7a-4c1e-9a57-0f6a1d3c2b11', { key: secret });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'limit is required', field: 'limit' } });
  });

  it.each(numeric)(
    '%s: absent, the default applies (or, required, it is refused as required); not a number, refused by name',
    async (_name, route, param: ContractParameter) => {
      const { secret } = await createWorkspaceWithKey({ scopes: [...SCOPES] });
      const absent = await api('GET', pathFor(route, { [param.name]: undefined }) as '/posts', { key: secret });
      expect(absent.text, 'an absent number read as NaN').not.toMatch(/NaN/);
      if (param.required) {
        expect(absent.status).toBe(400);
        expect(problem(absent.body).text).toContain(`${param.name} is required`);
        expect(namesParam(absent.body, param.name)).toBe(true);
      } else {
        expect(absent.status >= 400 && namesParam(absent.body, param.name), absent.text).toBe(false);
        // Lists that echo the parameter show the default in use.
        const echoed = (absent.body as unknown as Record<string, unknown> | undefined)?.[param.name];
        if (absent.status === 200 && echoed !== undefined && param.schema.default !== undefined) expect(echoed).toBe(param.schema.default);
      }
      for (const written of ['abc', '', ' ', 'NaN', '0x10']) {
        const res = await api('GET', pathFor(route, { [param.name]: written }) as '/posts', { key: secret });
        expect(res.status, `?${param.name}=${JSON.stringify(written)}`).toBe(400);
        expect(namesParam(res.body, param.name), res.text).toBe(true);
        expect(res.text).not.toMatch(/received NaN|Too small/);
      }
    },
  );
});
