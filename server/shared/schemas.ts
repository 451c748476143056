// Shared wire schemas: envelopes, timestamps, ids, warnings. Routers build their outputs
// from these so every route answers the same shapes.
import { z } from 'zod';

export const ZId = z.uuid();

export type JsonSchema = Record<string, unknown>;

/**
 * The documented form of a schema whose validation is looser on purpose: the contract
 * document (zod-openapi's `override`) shows `documented` while the server keeps validating
 * with the schema itself, so bad input still answers the service's own error.
 */
export const documentedAs = (documented: () => JsonSchema) => ({
  override: ({ jsonSchema }: { jsonSchema: JsonSchema }) => {
    const { description, example } = jsonSchema;
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
    Object.assign(jsonSchema, documented(), description ? { description } : {}, example !== undefined ? { example } : {});
  },
});

// ── Text ──
// Every string a client sends that Herald may store goes through ZText (or carries the
// storableText check, for formats such as URLs). PostgreSQL cannot hold U+0000 in text or
// jsonb (the insert fails: a 500), and a UTF-16 surrogate without its pair is either
// refused by jsonb or silently replaced by U+FFFD in text. Refusing both up front answers
// the flat schema 400 naming the field, and every field built from ZText gets the rule.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for text PostgreSQL stores exactly as given. */
export const isStorableText = (s: string): boolean => !s.includes('\u0000') && !LONE_SURROGATE.test(s);

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Text read from a network, as PostgreSQL can hold it: NUL characters dropped, an unpaired
 * surrogate replaced by U+FFFD. Input from clients is refused instead (ZText); what a network
 * sends cannot be refused: a comment, message or review that could not be stored would fail
 * its whole read (or its webhook delivery) at every retry.
 */
export const toStorableText = (s: string): string => (isStorableText(s) ? s : s.replaceAll('\u0000', '').replace(LONE_SURROGATES, '\uFFFD'));

/** An item read from a network with every string in it made storable (toStorableText); the same object when nothing needed it. */
export function storableStrings<T>(value: T): T {
  if (typeof value === 'string') return toStorableText(value) as T;
  if (Array.isArray(value)) {
    const out = value.map(storableStrings);
    return (out.some((v, i) => v !== value[i]) ? out : value) as T;
  }
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  let out: Record<string, unknown> | null = null;
  for (const [key, v] of Object.entries(value)) {
    const clean = storableStrings(v);
    if (clean !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = clean;
  }
  return (out ?? value) as T;
}

/** The check itself, for string formats that are not built from ZText (`z.url().check(storableText)`). */
export const storableText = z.refine<string>(isStorableText, { message: 'must not contain the NUL character (U+0000) or an unpaired surrogate' });

/** The one string schema for input text. Chain as usual: `ZText.trim().min(1).max(80)`. */
export const ZText = z.string().check(storableText);
export const ZTimestamp = z.iso.datetime({ offset: true });
export const ZNullableTimestamp = ZTimestamp.nullable();

export const ZWarning = z
  .object({
    code: z.enum(['APPROVAL_REQUIRED', 'SCHEDULED_TIME_COERCED']).describe('Stable code'),
    message: z.string().describe('In words'),
  })
  .describe('A side effect of a successful write')
  .meta({ example: { code: 'APPROVAL_REQUIRED', message: 'The post waits for a member’s approval before it publishes' } });
export type Warning = z.infer<typeof ZWarning>;

const ZWarnings = z.array(ZWarning).describe('Side effects; usually empty');

/** Reads: `{ data }`. */
export const readEnvelope = <T extends z.ZodType>(data: T) => z.object({ data: described(data, 'The result') });
/** Writes: `{ data, warnings }`. */
export const writeEnvelope = <T extends z.ZodType>(data: T) => z.object({ data: described(data, 'The result'), warnings: ZWarnings });
/** Lists: `{ data, page, limit, total }`. */
export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item).describe('This page'),
    page: z.number().int().describe('Page, from 1').meta({ example: 1 }),
    limit: z.number().int().describe('Page size').meta({ example: 50 }),
    total: z.number().int().describe('All rows').meta({ example: 1 }),
  });

/**
 * The envelope's word for `data`'s role, unless the schema says more itself. A named schema
 * (`.meta({ id })`) is left as it is: describing it would copy it without its id, and every
 * response would then spell the component out instead of referring to it.
 */
function described<T extends z.ZodType>(schema: T, role: string): T {
  const meta = z.globalRegistry.get(schema);
  return meta?.id || meta?.description ? schema : (schema.describe(role) as T);
}

/**
 * Input of routes addressed by id only (`/things/{id}`). Any string is accepted, however
 * long or odd: an id that is not a uuid is simply not found (404 with the resource's code),
 * not a schema error. Services test `isUuid` before any lookup.
 */
export const ZIdParam = z.strictObject({ id: z.string().min(1) });

/**
 * An id naming one thing, described for whoever fills it in (the OpenAPI document's readers,
 * an assistant reading a tool's input schema): what it is and where it comes from.
 */
export const ZIdOf = (what: string, from: string) => {
  const id = ZIdParam.shape.id.describe(`The ${what}'s id, ${from}`);
  lookupIds.add(id);
  return id;
};
/** ZIdParam's id and its described copies: looked up, never stored (the storable-text audit skips them). */
const lookupIds = new WeakSet<z.ZodType>([ZIdParam.shape.id]);
export const isLookupId = (schema: unknown): boolean => lookupIds.has(schema as z.ZodType);
/** ZIdParam with its id described: `idParam('post', 'from posts_list or posts_create')`. */
export const idParam = (what: string, from: string) => z.strictObject({ id: ZIdOf(what, from) });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string): boolean => UUID.test(v);

/**
 * A timestamp as Prisma reads it (Date) or as the hot reads already give it (the ISO 8601
 * string `toISOString` writes, server/db/sql.ts): written out, or as epoch milliseconds.
 */
export type Stamp = Date | string;
export const iso = (d: Stamp): string => (typeof d === 'string' ? d : d.toISOString());
export const isoOrNull = (d: Stamp | null | undefined): string | null => (d ? iso(d) : null);
export const epochMs = (d: Stamp): number => (typeof d === 'string' ? Date.parse(d) : d.getTime());
