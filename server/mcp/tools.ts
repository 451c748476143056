// The tools of the tool endpoint, generated from the REST route table: every procedure that
// is a REST route is a tool with the same input schema (zod's JSON Schema output), the same
// output schema, the same scope and the same errors. Nothing here restates a rule; adding a
// route adds a tool (server/mcp/tools.test.ts fails otherwise).
import { z } from 'zod';
import { hasScope } from '@/server/auth/scopes';
import { ERROR_CATALOGUE, type ErrorCode } from '@/server/errors/catalogue';
import { restRoutes, type RestRoute } from '@/server/http/rest-routes';
import { routeErrorCodes } from '@/server/http/route-errors';

export type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  route: RestRoute;
  inputSchema: JsonSchemaObject;
  /** Undefined for routes that answer no body (204). */
  outputSchema?: JsonSchemaObject;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
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
  minLength: 1,
  maxLength: 255,
  description:
    'Optional. The same as the Idempotency-Key header: a retry with the same value returns the first result instead of acting twice. Use a fresh value per intended action.',
};

/** How an assistant recovers, where the catalogue's description does not already say. */
const RECOVERY: Partial<Record<ErrorCode, string>> = {
  RATE_LIMITED: 'wait the retryAfter seconds, then call again',
  SCOPE_MISSING: 'this key cannot do it; ask a member for a key with that scope',
  SERVICE_UNAVAILABLE: 'retry shortly with the same idempotencyKey',
  VALIDATION_FAILED: 'fix the field the message names and call again',
};

/** Transport-level codes a tool call cannot meet (it has no URL, body encoding or size of its own). */
const NOT_FOR_TOOLS: ReadonlySet<ErrorCode> = new Set(['URI_TOO_LONG', 'BAD_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']);

function describe(route: RestRoute, stageable: boolean): string {
  const meta = route.meta;
  const lines = [meta.openapi?.summary ?? route.procedure];
  if (meta.openapi?.description) lines.push(meta.openapi.description);
  if (meta.assistant?.hint) lines.push(meta.assistant.hint);
  lines.push(`Same as ${route.method} /public/v1${route.path}${meta.scope ? `; needs the ${meta.scope} scope` : ''}.`);
  if (stageable) {
    lines.push(
      'When it has an external or destructive effect, the call is staged instead of run: the result says it awaits a member’s confirmation and carries an actionId; follow up with proposals_get.',
    );
  }
  const codes = routeErrorCodes(meta, route.type === 'mutation').filter((c) => !NOT_FOR_TOOLS.has(c));
  const explained = codes.map((code) => `${code}: ${ERROR_CATALOGUE[code].description.replace(/\.$/, '')}${RECOVERY[code] ? ` (${RECOVERY[code]})` : ''}`);
  lines.push(`Errors come back with isError and the same code as REST — ${explained.join('; ')}.`);
  return lines.join('\n');
}

function buildTool(route: RestRoute): ToolDefinition {
  const name = toolNameOf(route.procedure);
  const isWrite = route.type === 'mutation';
  const stageable = Boolean(route.meta.assistant?.stage);
  const input = objectSchema(jsonSchema(route.input, 'input'));
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
    annotations: {
      title,
      readOnlyHint: !isWrite,
      destructiveHint: route.method === 'DELETE' || route.meta.assistant?.destructive === true,
      idempotentHint: route.method === 'GET' || route.method === 'DELETE' || route.method === 'PUT',
      openWorldHint: false,
    },
    stageable,
  };
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
