// The REST route table, read from the app router: every procedure whose meta carries
// `openapi` is a route at `meta.openapi.method` + `meta.openapi.path`. The OpenAPI document
// is generated from the same meta, so the routes served and the routes documented cannot
// drift apart; tests that must cover "every route" read this table too.
import { toJSONSchema, type z } from 'zod';
import { appRouter } from '@/server/root';
import type { HeraldMeta } from '@/server/trpc/meta';

export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT']);

export interface RestRoute {
  /** Upper-case HTTP method. */
  method: string;
  /** Path template relative to the API prefix, e.g. `/posts/{id}`. */
  path: string;
  /** Dotted procedure path in the router, e.g. `posts.get`. */
  procedure: string;
  type: 'query' | 'mutation';
  meta: HeraldMeta;
  /** Names of the `{params}` in `path`, in order. */
  pathParams: string[];
  /** The procedure's input schema (undefined when it takes none). */
  input: z.ZodType | undefined;
  /** The procedure's output schema (the success body). */
  output: z.ZodType | undefined;
  /**
   * POST/PATCH/PUT whose input has fields beyond the path's take them from a JSON body;
   * GET/DELETE, and writes addressed by the path alone (`POST /posts/{id}/publish`), read no
   * body at all: a body sent to them is ignored, so they never answer 413 or 415.
   */
  takesBody: boolean;
}

interface ProcedureLike {
  _def: { type: 'query' | 'mutation' | 'subscription'; meta?: HeraldMeta; inputs: z.ZodType[]; output?: z.ZodType };
}

const segmentsOf = (path: string): string[] => path.split('/').filter((s) => s !== '');
const PARAM = /^\{(\w+)\}$/;

function buildRoutes(): RestRoute[] {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, ProcedureLike> } })._def.procedures;
  const routes: RestRoute[] = [];
  for (const [procedure, proc] of Object.entries(procedures)) {
    const meta = proc._def.meta;
    if (!meta?.openapi || meta.openapi.enabled === false || proc._def.type === 'subscription') continue;
    const method = meta.openapi.method.toUpperCase();
    const path = `/${segmentsOf(meta.openapi.path).join('/')}`;
    const inputs = proc._def.inputs;
    if (inputs.length > 1) throw new Error(`${procedure}: a REST route takes one input schema (merge them into one strictObject)`);
    routes.push({
      method,
      path,
      procedure,
      type: proc._def.type as 'query' | 'mutation',
      meta,
      pathParams: segmentsOf(path).flatMap((s) => PARAM.exec(s)?.[1] ?? []),
      input: inputs[0],
      output: proc._def.output,
      takesBody:
        BODY_METHODS.has(method) &&
        hasFieldsBeyond(
          inputs[0],
          segmentsOf(path).flatMap((s) => PARAM.exec(s)?.[1] ?? []),
        ),
    });
  }
  return routes;
}

/** Whether the input schema declares a field that is not one of the path's parameters. */
function hasFieldsBeyond(input: z.ZodType | undefined, pathParams: string[]): boolean {
  if (!input) return false;
  const json = toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as {
    type?: string;
    properties?: object;
    additionalProperties?: unknown;
    anyOf?: { properties?: object }[];
  };
  const properties = json.properties ?? json.anyOf?.find((b) => b.properties)?.properties ?? {};
  const fields = Object.keys(properties);
  // An open schema (a record) has no listed fields but takes any: it reads a body.
  if (fields.length === 0) return json.type !== 'object' || typeof json.additionalProperties === 'object';
  return fields.some((f) => !pathParams.includes(f));
}

let cached: RestRoute[] | undefined;
/** Every REST route, once per process (the router does not change at runtime). */
export function restRoutes(): readonly RestRoute[] {
  cached ??= buildRoutes();
  return cached;
}

export interface RouteMatch {
  route: RestRoute;
  /** Path parameters as they appear in the URL: still percent-encoded. */
  rawParams: Record<string, string>;
}

/**
 * Finds the route for a method and a path relative to the API prefix (percent-encoded, as
 * in the URL). Literal segments compare without case, like the generated document's
 * clients expect; where a literal and a parameter could both match, the literal wins.
 */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  // Only the outer slashes are dropped: an empty inner segment matches nothing.
  const wanted = path.replace(/^\/+|\/+$/g, '').split('/');
  let best: { match: RouteMatch; literals: number } | undefined;
  for (const route of restRoutes()) {
    if (route.method !== method) continue;
    const template = segmentsOf(route.path);
    if (template.length !== wanted.length) continue;
    const rawParams: Record<string, string> = {};
    let literals = 0;
    let ok = true;
    for (let i = 0; i < template.length && ok; i++) {
      const param = PARAM.exec(template[i]!)?.[1];
      if (param) {
        if (wanted[i] === '') ok = false;
        else rawParams[param] = wanted[i]!;
      } else if (template[i]!.toLowerCase() === wanted[i]!.toLowerCase()) literals++;
      else ok = false;
    }
    if (ok && (!best || literals > best.literals)) best = { match: { route, rawParams }, literals };
  }
  return best?.match;
}

/**
 * The methods that have a route at this path (relative to the API prefix): what `OPTIONS`
 * answers in `Allow`. Only methods that really answer are listed — not HEAD or PUT, which the
 * route table does not serve — so a client that trusts `Allow` never meets a 404 for it.
 */
export function methodsAt(path: string): string[] {
  const methods = new Set(restRoutes().map((r) => r.method));
  return [...methods].filter((method) => matchRoute(method, path)).sort();
}
