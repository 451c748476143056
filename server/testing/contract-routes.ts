// Every public route as the OpenAPI document describes it, for tests that must cover all
// routes: a route added later joins them without anyone editing a list.
import { getOpenApiDocument } from '@/server/http/openapi';

export type JsonSchema = Record<string, any>;
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

export interface ContractParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface ContractRoute {
  method: string;
  /** Template such as `/posts/{id}`. */
  path: string;
  pathParams: string[];
  query: ContractParameter[];
  headers: ContractParameter[];
  /** The JSON body's schema, refs resolved; undefined for routes without a body. */
  body: JsonSchema | undefined;
  /** Whether the route needs an API key. */
  protected: boolean;
  /** Error codes the document lists for the route. */
  errorCodes: string[];
  /** Statuses the document lists for the route. */
  statuses: number[];
  operation: JsonSchema;
}

function resolve(doc: JsonSchema, schema: JsonSchema | undefined, depth = 0): JsonSchema | undefined {
  if (!schema || depth > 20) return schema;
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: any, key: string) => node?.[key], doc);
    return resolve(doc, target, depth + 1);
  }
  return schema;
}

export function contractRoutes(): ContractRoute[] {
  const doc = getOpenApiDocument() as unknown as JsonSchema;
  const routes: ContractRoute[] = [];
  for (const [path, ops] of Object.entries<JsonSchema>(doc.paths)) {
    for (const [method, op] of Object.entries<JsonSchema>(ops)) {
      const params: ContractParameter[] = (op.parameters ?? []).map((p: JsonSchema) => ({
        name: p.name,
        in: p.in,
        required: Boolean(p.required),
        schema: resolve(doc, p.schema) ?? {},
      }));
      const body = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
      const errorCodes = new Set<string>();
      for (const [status, response] of Object.entries<JsonSchema>(op.responses ?? {})) {
        if (Number(status) < 400) continue;
        for (const m of String(response.description ?? '').matchAll(/\b([A-Z][A-Z_]+):/g)) errorCodes.add(m[1]!);
      }
      routes.push({
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        query: params.filter((p) => p.in === 'query'),
        headers: params.filter((p) => p.in === 'header'),
        body: body ? deepResolve(doc, body) : undefined,
        protected: op.security === undefined ? (doc.security?.length ?? 0) > 0 : op.security.length > 0,
        errorCodes: [...errorCodes],
        statuses: Object.keys(op.responses ?? {}).map(Number),
        operation: op,
      });
    }
  }
  return routes;
}

function deepResolve(doc: JsonSchema, schema: JsonSchema, depth = 0): JsonSchema {
  if (depth > 20) return schema;
  const s = resolve(doc, schema) ?? {};
  const out: JsonSchema = { ...s };
  if (s.properties) out.properties = Object.fromEntries(Object.entries<JsonSchema>(s.properties).map(([k, v]) => [k, deepResolve(doc, v, depth + 1)]));
  if (s.items) out.items = deepResolve(doc, s.items, depth + 1);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.additionalProperties = deepResolve(doc, s.additionalProperties, depth + 1);
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(s[k])) out[k] = s[k].map((x: JsonSchema) => deepResolve(doc, x, depth + 1));
  return out;
}

/** The JSON types a schema admits (`integer` implies `number` values that are whole). */
export function allowedTypes(schema: JsonSchema): Set<JsonType> {
  const out = new Set<JsonType>();
  const visit = (s: JsonSchema | undefined) => {
    if (!s) return;
    if (Array.isArray(s.type)) s.type.forEach((t: JsonType) => out.add(t));
    else if (typeof s.type === 'string') out.add(s.type as JsonType);
    if (Array.isArray(s.enum)) for (const v of s.enum) out.add(jsonTypeOf(v));
    if ('const' in s) out.add(jsonTypeOf(s.const));
    for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[k])) s[k].forEach(visit);
  };
  visit(schema);
  if (out.has('number')) out.add('integer');
  return out;
}

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** True when a value's JSON type is one the schema admits. */
export function typeFits(schema: JsonSchema, value: unknown): boolean {
  const allowed = allowedTypes(schema);
  if (allowed.size === 0) return true; // `{}`: anything goes
  const t = jsonTypeOf(value);
  return allowed.has(t) || (t === 'integer' && allowed.has('number'));
}

export interface BodyField {
  /** Path from the body root, e.g. ['variants', 'linkedin', 'content'] or ['connectionIds', 0]. */
  path: (string | number)[];
  schema: JsonSchema;
}

/** The schema's own branches, for a value that is an object or array (not null). */
function structured(schema: JsonSchema): JsonSchema[] {
  const branches = [schema, ...(['anyOf', 'oneOf', 'allOf'] as const).flatMap((k) => (Array.isArray(schema[k]) ? schema[k] : []))];
  return branches.filter((b) => b.properties || b.items || (b.additionalProperties && typeof b.additionalProperties === 'object'));
}

/** Every field a body schema declares, nested objects, records and list items included. */
export function bodyFields(
  schema: JsonSchema,
  prefix: (string | number)[] = [],
  depth = 0,
  /** Which allowed key stands for a keyed object's entries (`variants.<platform>`): the first by default. */
  pickKey: (keys: string[]) => string = (keys) => keys[0]!,
): BodyField[] {
  if (depth > 6) return [];
  const out: BodyField[] = [];
  for (const branch of structured(schema)) {
    for (const [name, child] of Object.entries<JsonSchema>(branch.properties ?? {})) {
      out.push({ path: [...prefix, name], schema: child }, ...bodyFields(child, [...prefix, name], depth + 1, pickKey));
    }
    if (branch.items) out.push({ path: [...prefix, 0], schema: branch.items }, ...bodyFields(branch.items, [...prefix, 0], depth + 1, pickKey));
    const extra = branch.additionalProperties;
    if (extra && typeof extra === 'object' && Object.keys(extra).length > 0) {
      const keys: string[] = branch.propertyNames?.enum ?? [];
      const key = keys.length ? pickKey(keys) : 'key';
      out.push({ path: [...prefix, key], schema: extra }, ...bodyFields(extra, [...prefix, key], depth + 1, pickKey));
    }
  }
  return out;
}

/** A value placed at `path` inside otherwise empty objects and lists. */
export function nestAt(path: (string | number)[], value: unknown): unknown {
  let out = value;
  for (let i = path.length - 1; i >= 0; i--) {
    const key = path[i]!;
    // List items are always addressed as the first item (bodyFields uses index 0).
    out = typeof key === 'number' ? [out] : { [key]: out };
  }
  return out;
}

/** `/posts/{id}` with its parameters filled in (already percent-encoded as needed). */
export function fillPath(route: Pick<ContractRoute, 'path'>, values: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'x');
}

/**
 * A minimal value the schema accepts by its declared shape: required fields only, the first
 * enum value, a future timestamp, the shortest string of `x` allowed. Enough to get past
 * schema validation to the service (which then decides, e.g. not found).
 */
export function sampleValue(schema: JsonSchema): unknown {
  const branch = schema.anyOf?.find((b: JsonSchema) => b.type !== 'null') ?? schema.oneOf?.[0] ?? schema;
  if (branch.default !== undefined) return branch.default;
  if (Array.isArray(branch.enum)) return branch.enum[0];
  if ('const' in branch) return branch.const;
  switch (Array.isArray(branch.type) ? branch.type[0] : branch.type) {
    case 'string':
      if (branch.format === 'date-time') return new Date(Date.now() + 3_600_000).toISOString();
      if (branch.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (branch.format === 'date') return '2026-01-01';
      if (branch.format === 'uri') return 'https://example.com/x';
      return 'x'.repeat(Math.max(1, branch.minLength ?? 1));
    case 'integer':
    case 'number':
      return branch.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: branch.minItems ?? 0 }, () => sampleValue(branch.items ?? {}));
    case 'object':
      return Object.fromEntries((branch.required ?? []).map((k: string) => [k, sampleValue(branch.properties?.[k] ?? {})]));
    default:
      return null;
  }
}
