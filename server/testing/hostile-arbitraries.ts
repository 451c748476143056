// fast-check generators of what a hostile or careless client sends: wrong JSON types, text
// PostgreSQL cannot store, Unicode that is valid but unusual, malformed ids and oversized
// values. Routes come from the OpenAPI document (contract-routes.ts), so a route added later
// is generated for without anyone listing it.
import fc from 'fast-check';
import { MAX_HTTP_HEADER_BYTES } from '@/server/shared/http-limits';
import { allowedTypes, bodyFields, nestAt, sampleValue, type ContractRoute, type JsonSchema } from './contract-routes';

/** Text that is valid Unicode but unusual: every one of these must be stored exactly. */
export const UNUSUAL_TEXT = [
  '👨‍👩‍👧‍👦', // a ZWJ family sequence
  '🇫🇷🇯🇵', // regional-indicator flags
  '👍🏽', // skin-tone modifier
  'e\u0301\u0302\u0303', // stacked combining marks
  '\u202Eevil\u202C', // RTL override
  '\u200F\u200E', // RTL / LTR marks
  'zero\u200Bwidth\u200Cjoin\u200D', // zero-width space, non-joiner, joiner
  '\uFEFF', // byte order mark
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', // astral plane letters
  '\u0001\u001F\u007F', // control characters other than NUL
  ' \t\n ', // whitespace only
  '',
];

/** Text PostgreSQL cannot hold exactly: must be refused, never a 500. */
export const UNSTORABLE_TEXT = ['\u0000', 'a\u0000b', '\uD800', 'x\uDC00', '\uDBFF\uDBFF', '\uDC00\uD800'];

const LONE_SURROGATE = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Short strings biased towards the edges: fit anywhere, a URL included. */
export const shortHostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...UNUSUAL_TEXT, ...UNSTORABLE_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), LONE_SURROGATE, fc.constant('\u0000')), maxLength: 20 }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("' OR 1=1 --", '<script>alert(1)</script>', '${jndi:x}', '../../etc/passwd', '%00', 'NaN', '1e309', 'null', 'true', '__proto__'),
  },
);

/** Any string a JSON body can carry: the short ones, and now and then one over every limit. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 9, arbitrary: shortHostileString },
  { weight: 1, arbitrary: fc.integer({ min: 10_001, max: 30_000 }).map((n) => 'x'.repeat(n)) },
);

/** Any JSON value, of any type, with hostile strings and numbers at the edges. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, 1.5, -1, 2 ** 53 + 1, 1e308, Number.MAX_SAFE_INTEGER)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 3 }),
    fc.constant(Array.from({ length: 25 }, (_, i) => `item-${i}`)), // over every list limit
    fc.constant(JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) as unknown), // deep nesting
  ),
})).value;

/**
 * A path segment as it appears in the URL (already percent-encoded): ids that exist, ids
 * that do not, broken percent-encoding, and encodings of hostile text. Never empty, `.` or
 * `..` (a URL resolves those to another path before any route sees it).
 */
export function pathSegment(existingIds: readonly string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 3, arbitrary: existingIds.length ? fc.constantFrom(...existingIds) : fc.uuid() },
      { weight: 1, arbitrary: fc.uuid() },
      {
        weight: 2,
        arbitrary: fc.constantFrom('%ZZ', '%', '%C0%AE', '%ED%A0%80', '%E2%82', 'abc%', '%00', '%25', '%2F', '%FF%FE', 'null', 'undefined', '0', '-1'),
      },
      { weight: 2, arbitrary: shortHostileString.map(encodeSegment) },
      { weight: 1, arbitrary: fc.integer({ min: 200, max: 3_000 }).map((n) => 'i'.repeat(n)) },
    )
    .filter((s) => s !== '' && !/^(?:\.|%2e){1,2}$/i.test(s));
}

/** Percent-encodes any JS string, a lone surrogate as the (invalid) UTF-8 bytes it would have. */
export function encodeSegment(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

/** A header value fetch can send and Node's parser accepts: visible Latin-1, spaces, tabs. */
export const headerValue: fc.Arbitrary<string> = fc
  .string({
    unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }), fc.constant(0x09)).map((c) => String.fromCharCode(c)),
    maxLength: 60,
  })
  .map((s) => s.trim());

export interface HostileRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  rawBody?: string;
  /** What was generated, for the failure report. */
  note: string;
}

export interface RequestContext {
  /** A key holding every scope. */
  secret: string;
  /** An existing id per collection of the path (`posts`, `workspaces`, `media` …). */
  idsByCollection: Record<string, string>;
  /** Workspace ids the selection header may name (managed ones, the key's own). */
  workspaceIds: readonly string[];
  /** Valid values for fields the samples cannot invent (real connection ids …), by field name. */
  knownFields: Record<string, unknown>;
  /** Keys to use in keyed objects (`variants.<platform>`) when the schema allows them. */
  preferredKeys: readonly string[];
}

/** A body the schema accepts, using real values where a field needs one. */
export function validBody(schema: JsonSchema, ctx: RequestContext): Record<string, unknown> {
  const base = sampleValue(schema) as Record<string, unknown>;
  for (const [name, value] of Object.entries(ctx.knownFields)) if (schema.properties?.[name] && name in base) base[name] = value;
  return base;
}

function setAt(target: Record<string, unknown>, path: (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(target);
  const [head, ...rest] = path;
  if (rest.length === 0) copy[String(head)] = value;
  else if (typeof copy[String(head)] === 'object' && copy[String(head)] !== null && !Array.isArray(copy[String(head)]) && typeof rest[0] === 'string') {
    copy[String(head)] = setAt(copy[String(head)] as Record<string, unknown>, rest, value);
  } else copy[String(head)] = nestAt(rest, value);
  return copy;
}

/**
 * A value for one field: for text fields mostly text — what PostgreSQL cannot store (must be
 * refused), unusual Unicode (must be stored exactly), or too long — otherwise any JSON.
 */
function fieldValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (!allowedTypes(schema).has('string')) return fc.oneof(hostileJson, hostileString);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...UNSTORABLE_TEXT) },
    { weight: 3, arbitrary: fc.constantFrom(...UNUSUAL_TEXT) },
    { weight: 2, arbitrary: hostileString },
    { weight: 2, arbitrary: hostileJson },
  );
}

/** JSON.stringify keeps lone surrogates as escapes, as a client's serializer would. */
const toJson = (value: unknown) => JSON.stringify(value) ?? 'null';
const show = (value: unknown) => toJson(value).slice(0, 60);

// ── One request = a valid baseline + one (sometimes a few) hostile changes ──
// Changing one thing at a time lets a request get past everything else and reach the rule
// it is aimed at; the combined changes cover interactions.

interface Draft {
  pathValues: string[];
  query: string;
  body: string | undefined;
  headers: Record<string, string>;
}

interface Change {
  apply(draft: Draft): void;
  note: string;
}

const change = (note: string, apply: (draft: Draft) => void): Change => ({ note, apply });

/** The collection a path parameter belongs to: `/workspaces/{id}/api-keys` → `workspaces`. */
function collectionsOf(route: ContractRoute): string[] {
  const segments = route.path.split('/').filter(Boolean);
  return route.pathParams.map((name) => segments[segments.indexOf(`{${name}}`) - 1] ?? '');
}

function baseline(route: ContractRoute, ctx: RequestContext): Draft {
  const anyId = Object.values(ctx.idsByCollection)[0] ?? '00000000-0000-4000-8000-000000000000';
  return {
    pathValues: collectionsOf(route).map((c) => ctx.idsByCollection[c] ?? anyId),
    query: '',
    body: route.body ? toJson(validBody(route.body, ctx)) : undefined,
    headers: { authorization: `Bearer ${ctx.secret}`, ...(route.body ? { 'content-type': 'application/json' } : {}) },
  };
}

function pathChanges(route: ContractRoute, ctx: RequestContext): fc.Arbitrary<Change> | undefined {
  if (!route.pathParams.length) return undefined;
  return fc
    .tuple(fc.nat({ max: route.pathParams.length - 1 }), pathSegment(Object.values(ctx.idsByCollection)))
    .map(([i, value]) => change(`${route.pathParams[i]} = ${value.slice(0, 60)}`, (d) => void (d.pathValues[i] = value)));
}

function queryChanges(route: ContractRoute): fc.Arbitrary<Change> | undefined {
  if (route.body || route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT') return undefined;
  const declared = route.query.map((p) =>
    fc
      .option(
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(encodeURIComponent(String(sampleValue(p.schema) ?? ''))) },
          { weight: 2, arbitrary: shortHostileString.map(encodeSegment) },
          { weight: 2, arbitrary: fc.constantFrom('%ZZ', '-1', '0', '1.5', '1e3', '999999999999999999999', 'true', '', '%00', 'x') },
        ),
        { nil: undefined, freq: 3 },
      )
      .map((v) => (v === undefined ? [] : [`${encodeURIComponent(p.name)}=${v}`])),
  );
  const unknown = fc.array(
    fc.tuple(shortHostileString, shortHostileString).map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`),
    { maxLength: 2 },
  );
  // Now and then a query string past Herald's URL limit (414), still under Node's (431).
  const long = fc.oneof(
    { weight: 9, arbitrary: fc.constant([] as string[]) },
    { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 12_000 }).map((n) => [`pad=${'p'.repeat(n)}`]) },
  );
  const someUnknown = fc.oneof({ weight: 3, arbitrary: fc.constant([] as string[]) }, { weight: 1, arbitrary: unknown });
  return fc.tuple(fc.tuple(...declared), someUnknown, long).map(([d, u, l]) => {
    const parts = [...d.flat(), ...u, ...l];
    const query = parts.length ? `?${parts.join('&')}` : '';
    return change(`query ${query.slice(0, 80)}`, (draft) => void (draft.query = query));
  });
}

function bodyChanges(route: ContractRoute, ctx: RequestContext): fc.Arbitrary<Change> | undefined {
  const takesBody = route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT';
  if (!takesBody) return undefined;
  const setBody = (raw: string, note: string) => change(note, (d) => void (d.body = raw));
  const whole = fc.oneof(
    hostileJson.map((v) => setBody(toJson(v), `body ${show(v)}`)),
    fc
      .constantFrom('{', '{"a":', '[1,2', '"just a string"', 'null', '{"a":1}{"b":2}', '\uFEFF{}', '{"content":"\u0000"}')
      .map((raw) => setBody(raw, `raw body ${raw}`)),
  );
  if (!route.body) return whole; // routes without a body: anything sent is refused, or `{}`
  const valid = validBody(route.body, ctx);
  const fields = bodyFields(route.body, [], 0, (keys) => keys.find((k) => ctx.preferredKeys.includes(k)) ?? keys[0]!);
  const extra = fc
    .tuple(shortHostileString, hostileJson)
    .map(([k, v]) => setBody(toJson({ ...valid, [k]: v }), `extra field ${JSON.stringify(k).slice(0, 30)}`));
  if (!fields.length) return fc.oneof(whole, extra);
  const field = fc
    .constantFrom(...fields)
    .chain((f) => fieldValue(f.schema).map((v) => ({ f, v })))
    .map(({ f, v }) => setBody(toJson(setAt(valid, f.path, v)), `${f.path.join('.')} = ${show(v)}`));
  return fc.oneof({ weight: 6, arbitrary: field }, { weight: 1, arbitrary: extra }, { weight: 1, arbitrary: whole });
}

function headerChanges(route: ContractRoute, ctx: RequestContext): fc.Arbitrary<Change>[] {
  const set = (name: string, value: string | undefined) =>
    change(`${name}: ${value === undefined ? '(none)' : JSON.stringify(value).slice(0, 60)}`, (d) => {
      if (value === undefined) delete d.headers[name];
      else d.headers[name] = value;
    });
  const out: fc.Arbitrary<Change>[] = [
    fc
      .oneof(
        fc.constant(undefined),
        headerValue,
        fc.constantFrom(
          `Bearer ${ctx.secret.slice(0, -1)}A`,
          `Bearer ${'A'.repeat(4_000)}`,
          'Basic dXNlcjpwYXNz',
          `bearer   ${ctx.secret}`,
          `Bearer ${ctx.secret} extra`,
        ),
      )
      .map((v) => set('authorization', v)),
    fc
      .oneof(
        ctx.workspaceIds.length ? fc.constantFrom(...ctx.workspaceIds) : fc.uuid(),
        fc.uuid(),
        headerValue,
        fc.constantFrom(' ', 'a,b', `${ctx.workspaceIds[0] ?? ''},${ctx.workspaceIds[0] ?? ''}`),
      )
      .map((v) => set('x-service-workspace', v)),
  ];
  if (route.method !== 'GET') {
    out.push(fc.oneof(fc.uuid(), headerValue, fc.constantFrom('k'.repeat(256), 'k'.repeat(255), 'a\tb', 'caf\u00e9')).map((v) => set('idempotency-key', v)));
  }
  if (route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT') {
    out.push(
      fc
        .oneof(
          fc.constant(undefined),
          headerValue,
          fc.constantFrom(
            'application/jsonx',
            'text/plain',
            'application/json; charset=utf-8',
            'APPLICATION/JSON',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json-patch+json',
            '',
          ),
        )
        .map((v) => set('content-type', v)),
    );
  }
  return out;
}

/**
 * Bytes of the request line and headers. Above Node's limit Herald's server answers 431
 * before any route runs and closes the connection, so a client still sending may see a reset
 * instead of the answer: such requests are sent as raw bytes in transport-limits.test.ts
 * (every operation, the answer validated against the document), not generated here.
 */
function requestHeadBytes(req: { path: string; headers: Record<string, string> }): number {
  return req.path.length + 200 + Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
}

/** Requests for one route: a valid one with one thing (or a few) made hostile. */
export function hostileRequest(route: ContractRoute, ctx: RequestContext): fc.Arbitrary<HostileRequest> {
  const path = pathChanges(route, ctx);
  const query = queryChanges(route);
  const body = bodyChanges(route, ctx);
  const headers = headerChanges(route, ctx);
  const single: fc.WeightedArbitrary<Change>[] = [
    ...(path ? [{ weight: 3, arbitrary: path }] : []),
    ...(query ? [{ weight: 3, arbitrary: query }] : []),
    ...(body ? [{ weight: 6, arbitrary: body }] : []),
    ...headers.map((arbitrary) => ({ weight: 1, arbitrary })),
  ];
  const anyChange = fc.oneof(...single);
  const changes = fc.oneof(
    { weight: 1, arbitrary: fc.constant([] as Change[]) },
    { weight: 8, arbitrary: anyChange.map((c) => [c]) },
    { weight: 2, arbitrary: fc.array(anyChange, { minLength: 2, maxLength: 3 }) },
  );
  return changes
    .map((list) => {
      const draft = baseline(route, ctx);
      for (const c of list) c.apply(draft);
      let i = 0;
      const fullPath = route.path.replace(/\{(\w+)\}/g, () => draft.pathValues[i++]!) + draft.query;
      const note = `${route.method} ${route.path}: ${list.length ? list.map((c) => c.note).join(' + ') : 'valid request'}`;
      // fast-check prints a failing request through this, instead of every generated byte.
      return { method: route.method, path: fullPath, headers: draft.headers, rawBody: draft.body, note, [fc.toStringMethod]: () => note };
    })
    .filter((req) => requestHeadBytes(req) < MAX_HTTP_HEADER_BYTES - 512);
}
