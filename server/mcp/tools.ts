// The tools of the tool endpoint, generated from the REST route table: every procedure that
// is a REST route is a tool with the same input schema (zod's JSON Schema output), the same
// output schema, the same scope and the same errors. Nothing here restates a rule; adding a
// route adds a tool (server/mcp/tools.test.ts fails otherwise).
import { z } from 'zod';
import { hasScope } from '@/server/auth/scopes';
import { restRoutes, type RestRoute } from '@/server/http/rest-routes';

export type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

/**
 * What `tools/list` may weigh, in KiB, for a key with every scope: the listing sits in an
 * assistant's context before its first call, so every tool's text is paid for on every
 * session. server/mcp/tool-surface.test.ts holds the listing to it and checks that
 * docs/mcp.md states it; bench/mcp.ts prints the size against it.
 */
export const TOOLS_LIST_BUDGET_KB = 62;

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  route: RestRoute;
  inputSchema: JsonSchemaObject;
  /** Undefined for routes that answer no body (204). */
  outputSchema?: JsonSchemaObject;
  /**
   * MCP's hints, each only where its value differs from the protocol's default (readOnly
   * false, destructive true, idempotent false, openWorld true); destructive and idempotent
   * mean nothing on a read.
   */
  annotations: { readOnlyHint?: true; destructiveHint?: false; idempotentHint?: true; openWorldHint?: false };
  /** Whether a call may be staged for a member's confirmation (meta.assistant.stage). */
  stageable: boolean;
}

/** `posts.create` → `posts_create`, `workspaces.mintKey` → `workspaces_mint_key`. */
export function toolNameOf(procedure: string): string {
  return procedure
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/\./g, '_')
    .toLowerCase();
}

/** What a staged call answers instead of the route's body. */
export const ZStagedResult = z.object({
  staged: z.object({
    actionId: z.uuid(),
    toolName: z.string(),
    title: z.string(),
    status: z.literal('staged'),
    expiresAt: z.string(),
    confirmUrl: z.string(),
  }),
});

function jsonSchema(schema: z.ZodType | undefined, io: 'input' | 'output'): Record<string, unknown> {
  if (!schema) return { type: 'object', properties: {} };
  // draft-07: what MCP clients validate with; refinements and transforms have no JSON form.
  const out = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** Tool input must be an object schema; an optional input (`z.object().optional()`) is one. */
function objectSchema(schema: Record<string, unknown>): JsonSchemaObject {
  if (schema.type === 'object') return schema as JsonSchemaObject;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Array<Record<string, unknown>> | undefined;
  const object = alternatives?.find((s) => s.type === 'object');
  return (object as JsonSchemaObject | undefined) ?? { type: 'object', properties: {} };
}

const IDEMPOTENCY_ARGUMENT = {
  type: 'string',
  maxLength: 255,
  description: 'Retry key: a repeat replays the first result',
};

/**
 * JSON Schema keywords that cost an assistant's context and tell it nothing the rest of the
 * schema does not: zod spells `format: date-time` and `uuid` out again as a 300-character
 * `pattern`, and an unbounded integer as `maximum: 2^53-1`. The procedure still validates
 * with the full zod schema; REST's OpenAPI document keeps them.
 */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'pattern' && 'format' in node) continue;
    // The contract document's examples (openapi-examples.ts) would double what an assistant
    // reads per tool; the descriptions say what each field holds.
    if (key === 'example' || key === 'override') continue;
    if ((key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)) continue;
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    // "Not empty" goes without saying for an id or a name; an unknown argument is refused
    // with a message naming it, so the closed-object marker on every schema buys nothing.
    if (key === 'minLength' && value === 1) continue;
    // Sanity bounds on ids, URLs and long text (100 characters and more) guide nobody.
    if (key === 'maxLength' && typeof value === 'number' && value >= 100) continue;
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = compact(value);
  }
  // A nullable property's description sits on its non-null branch; clients read it on the
  // property. When the property has its own (what null means there), that one is said once.
  const branches = out.anyOf as Array<Record<string, unknown>> | undefined;
  const nullable = branches?.length === 2 && branches.some((b) => b.type === 'null');
  const described = nullable ? branches!.find((b) => typeof b.description === 'string') : undefined;
  if (described) {
    out.description ??= described.description;
    out.anyOf = branches!.map(({ description: _, ...rest }) => rest);
  }
  return out;
}

/**
 * What the tool does and whether it can be staged: the text an assistant reads for every tool
 * before its first call, so nothing in it is said per tool that holds for all of them.
 */
function describe(route: RestRoute, stageable: boolean): string {
  const meta = route.meta;
  // The summary and the assistant's hint; the REST description speaks to integrators.
  const lines = [(meta.openapi?.summary ?? route.procedure).replace(CONTRACT_REMARK, ''), ...(meta.assistant?.hint ? [meta.assistant.hint] : [])];
  // Neither the REST route nor the scope (tools/list shows only what the key may call), nor
  // the error codes: an error result names its code and what to do next, and herald://errors
  // lists them all once.
  if (stageable) lines.push('May be staged (see instructions).');
  return lines.join('\n');
}
const CONTRACT_REMARK = /^Herald extension: /;

function buildTool(route: RestRoute): ToolDefinition {
  const name = toolNameOf(route.procedure);
  const isWrite = route.type === 'mutation';
  const stageable = Boolean(route.meta.assistant?.stage);
  const input = compact(objectSchema(jsonSchema(route.input, 'input'))) as JsonSchemaObject;
  const inputSchema: JsonSchemaObject = isWrite
    ? { ...input, properties: { ...((input.properties as object | undefined) ?? {}), idempotencyKey: IDEMPOTENCY_ARGUMENT } }
    : input;
  let outputSchema: JsonSchemaObject | undefined;
  if (route.meta.successStatus !== 204 && route.output) {
    const { definitions, ...body } = jsonSchema(route.output, 'output');
    // `$ref`s point at the root's definitions: they stay at the root when the body becomes one branch.
    outputSchema = stageable
      ? { type: 'object', anyOf: [body, jsonSchema(ZStagedResult, 'output')], ...(definitions ? { definitions } : {}) }
      : objectSchema({ ...body, ...(definitions ? { definitions } : {}) });
  }
  const title = route.meta.openapi?.summary ?? name;
  return {
    name,
    title,
    description: describe(route, stageable),
    route,
    inputSchema,
    outputSchema,
    annotations: annotationsOf(route),
    stageable,
  };
}

/**
 * By rule from the route: a GET reads; a DELETE, or a call that posts to social networks
 * (meta.assistant.reaches), destroys or cannot be taken back; DELETE and PUT repeat
 * harmlessly; only a call that reaches outside Herald is open-world.
 */
function annotationsOf(route: RestRoute): ToolDefinition['annotations'] {
  const reaches = route.meta.assistant?.reaches;
  const annotations: ToolDefinition['annotations'] = {};
  if (route.type === 'query') annotations.readOnlyHint = true;
  else {
    if (route.method !== 'DELETE' && reaches !== 'networks') annotations.destructiveHint = false;
    if (route.method === 'DELETE' || route.method === 'PUT') annotations.idempotentHint = true;
  }
  if (reaches === undefined) annotations.openWorldHint = false;
  return annotations;
}

let cached: Map<string, ToolDefinition> | undefined;

/** Every tool, by name, once per process. */
export function tools(): ReadonlyMap<string, ToolDefinition> {
  cached ??= new Map(restRoutes().map((route) => [toolNameOf(route.procedure), buildTool(route)]));
  return cached;
}

/**
 * The tools a key may call: `tools/list` shows nothing the key's scopes would refuse, nor a
 * route this deployment has switched off (meta.enabled).
 */
export function toolsFor(scopes: readonly string[]): ToolDefinition[] {
  return [...tools().values()].filter((t) => (!t.route.meta.scope || hasScope(scopes, t.route.meta.scope)) && (t.route.meta.enabled?.() ?? true));
}
