// Examples for the contract document, assembled from the schemas themselves: a request body's
// or a response's example is built from the `example` each field's schema carries (set with
// `.meta({ example })` where the field is defined, so REST, tRPC and the tools share it), an
// object schema's own example winning over its fields'. Where a field has none, a value that
// its schema accepts is chosen from its format, enum, bounds or name. Every example the
// document carries is validated against its schema by openapi-examples.test.ts, so a field
// example that breaks its own rule (a pattern, a length) fails there, not in a client.

type Json = Record<string, unknown>;

const SAMPLE_ID = '5b0f8f8e-2c7a-4c1e-9a57-0f6a1d3c2b11';
const SAMPLE_TIME = '2026-11-24T09:00:00.000Z';

/** Plausible text for a string field known only by its name (the last resort). */
const BY_NAME: [RegExp, string][] = [
  [/url$|^permalink$|^avatarUrl$/i, 'https://example.com/launch'],
  [/email/i, 'maya@acme-coffee.example'],
  [/^(name|displayName|accountName)$/i, 'Acme Coffee'],
  [/^slug$/i, 'acme-coffee'],
  [/^title$/i, 'Autumn menu launch'],
  [/^(content|text)$/i, 'Our autumn menu is here: pumpkin spice is back from Monday.'],
  [/message|reason|description|error/i, 'The access token has expired'],
  [/timeZone/i, 'Europe/Berlin'],
  [/id$/i, SAMPLE_ID],
  [/at$|since|from|to|date/i, SAMPLE_TIME],
];

function stringFor(schema: Json, name: string): string {
  switch (schema.format) {
    case 'date-time':
      return SAMPLE_TIME;
    case 'date':
      return SAMPLE_TIME.slice(0, 10);
    case 'uuid':
      return SAMPLE_ID;
    case 'uri':
    case 'url':
      return 'https://example.com/launch';
    case 'email':
      return 'maya@acme-coffee.example';
  }
  const found = BY_NAME.find(([re]) => re.test(name))?.[1] ?? `${name || 'value'} text`;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const padded = found.length < min ? found.padEnd(min, 'x') : found;
  return padded.slice(0, max);
}

export interface ExampleContext {
  /** Resolves `#/components/schemas/…` references. */
  resolve(ref: string): Json | undefined;
}

/** An example value for `schema`, the field's name guiding the last resort. */
export function exampleFor(schema: unknown, ctx: ExampleContext, name = '', depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const s = schema as Json;
  if (typeof s.$ref === 'string') return exampleFor(ctx.resolve(s.$ref), ctx, name, depth + 1);
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined && s.default !== null) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum.find((v) => v !== null) ?? s.enum[0];
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (branches?.length) {
    // The non-null branch shows what the field holds when set.
    const set = branches.find((b) => (b as Json)?.type !== 'null') ?? branches[0];
    return exampleFor(set, ctx, name, depth + 1);
  }
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((p) => exampleFor(p, ctx, name, depth + 1));
    const own = s.properties ? exampleFor({ ...s, allOf: undefined }, ctx, name, depth + 1) : undefined;
    return Object.assign({}, ...parts.filter((p) => p && typeof p === 'object'), own ?? {});
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
    case undefined: {
      if (!s.properties && type === undefined) return s.additionalProperties === undefined ? null : {};
      const out: Json = {};
      for (const [key, value] of Object.entries((s.properties ?? {}) as Json)) out[key] = exampleFor(value, ctx, key, depth + 1);
      // A map keyed by an enum (variants by platform): one entry shows its shape.
      const keys = (s.propertyNames as Json | undefined)?.enum as string[] | undefined;
      if (!s.properties && keys?.length && s.additionalProperties && typeof s.additionalProperties === 'object') {
        out[keys.includes('linkedin') ? 'linkedin' : keys[0]!] = exampleFor(s.additionalProperties, ctx, '', depth + 1);
      }
      return out;
    }
    case 'array': {
      const item = exampleFor(s.items, ctx, name.replace(/s$/, ''), depth + 1);
      return s.maxItems === 0 ? [] : [item];
    }
    case 'string':
      return stringFor(s, name);
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined;
      const max = typeof s.maximum === 'number' ? s.maximum : undefined;
      const value = min !== undefined && min > 0 ? Math.max(min, Math.min(max ?? 20, 20)) : Math.min(max ?? 20, 20);
      return Math.max(value, min ?? -Infinity);
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}
