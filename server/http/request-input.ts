// How the REST facade turns an HTTP request into a procedure's input. Two rules:
// - a body is JSON exactly as sent: `application/json` only, an object, UTF-8, at most
//   MAX_BODY_BYTES, and never converted (`"false"` stays a string and fails a boolean);
// - query and path parameters are strings by nature: where the route's schema declares a
//   number, boolean, bigint or date they are converted from their written form
//   (`?limit=20` → 20, `?flag=false` → false), without touching the schema itself.
// Conversion happens here only: input schemas declare plain types (`z.number()`), never
// `z.coerce.*`, which turns an absent parameter into NaN (a required one then reads "expected
// number, received NaN" instead of "is required") and an empty one into 0
// (request-input.test.ts walks every route's input to keep it so).
import type { z } from 'zod';
import { AppError } from '@/server/errors/app-error';
import { MAX_BODY_BYTES } from '@/server/shared/http-limits';
import { isJsonContentType } from '@/server/shared/headers';
import { readBodyBytes } from './node-bridge';
import { decodePathSegment } from './percent-encoding';

const badRequest = (message: string) => new AppError('BAD_REQUEST', message, { messages: [message] });

/**
 * A request body's bytes, at most `limit` (PAYLOAD_TOO_LARGE past it, or at once when the
 * declared Content-Length says so).
 */
export async function readBytes(req: Request, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `request body over ${limit} bytes`);
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const bytes = await readBodyBytes(req, limit);
  if (!bytes) throw tooLarge();
  return bytes;
}

// One decoder for every body: with `fatal` and no streaming, decode() keeps no state between calls.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body's text, or null when its bytes are not UTF-8: JSON is UTF-8 (RFC 8259), and bytes
 * that are not would otherwise turn into U+FFFD silently.
 */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The body of a POST/PATCH/PUT as a plain object. An empty body stands for `{}` whatever its
 * Content-Type (routes such as `POST /posts/{id}/publish` take none); anything else must be
 * a JSON object sent as `application/json`.
 */
export async function readJsonBody(req: Request, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const bytes = await readBytes(req, limit);
  const text = utf8Text(bytes);
  if (text === null) throw badRequest('body is not valid JSON');
  if (text.trim() === '') return {};
  if (!isJsonContentType(req.headers.get('content-type'))) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the body as JSON with Content-Type: application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('body must be a JSON object');
  return parsed as Record<string, unknown>;
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  getter?: () => z.ZodType;
};
const defOf = (schema: z.ZodType | undefined): Def | undefined => (schema as unknown as { _zod?: { def: Def } } | undefined)?._zod?.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional/nullable/default/… wrappers: what the value itself must be. */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (!def) return current;
    if (WRAPPERS.has(def.type)) current = def.innerType;
    else if (def.type === 'pipe') current = def.in;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else return current;
  }
  return current;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** One query or path string in the form its schema declares; unchanged when it does not fit. */
function convertString(schema: z.ZodType | undefined, raw: string): unknown {
  const def = defOf(unwrap(schema));
  if (!def) return raw;
  switch (def.type) {
    case 'number':
      return NUMBER.test(raw) ? Number(raw) : raw;
    case 'bigint':
      return /^[+-]?\d+$/.test(raw) ? BigInt(raw) : raw;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'date': {
      const d = new Date(raw);
      return Number.isNaN(d.getTime()) ? raw : d;
    }
    default:
      return raw;
  }
}

function convertValues(schema: z.ZodType | undefined, values: string[]): unknown {
  const def = defOf(unwrap(schema));
  if (def?.type === 'array') return values.map((v) => convertString(def.element, v));
  // A repeated parameter that is not a list stays a list: the schema refuses it by name.
  return values.length === 1 ? convertString(schema, values[0]!) : values;
}

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  const def = defOf(unwrap(schema));
  return def?.type === 'object' && def.shape ? def.shape : {};
}

/** Query parameters as input: `?a=1&a=2` is a list, a single `?a=1` a value. */
export function queryInput(params: URLSearchParams, schema: z.ZodType | undefined): Record<string, unknown> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  const shape = shapeOf(schema);
  // fromEntries defines own properties, so a key like `__proto__` is just an unknown field.
  return Object.fromEntries([...grouped].map(([key, values]) => [key, convertValues(shape[key], values)]));
}

/** Path parameters as input, decoded and converted like query parameters. */
export function pathInput(rawParams: Record<string, string>, schema: z.ZodType | undefined): Record<string, unknown> {
  const shape = shapeOf(schema);
  return Object.fromEntries(Object.entries(rawParams).map(([key, raw]) => [key, convertString(shape[key], decodePathSegment(raw))]));
}
