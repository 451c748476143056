// The contract document, generated from the router and completed from route meta:
// trpc-to-openapi declares every success as 200 with generic errors, so we set each
// route's success status, its error responses (from the error catalogue) and the
// Idempotency-Key / workspace headers.
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { ERROR_CATALOGUE, type ErrorCode } from '@/server/errors/catalogue';
import { HEADERS } from '@/server/shared/headers';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '@/server/idempotency/idempotency';
import { MAX_AUTHORIZATION_LENGTH, MAX_BODY_BYTES, MAX_HTTP_HEADER_BYTES, MAX_URL_BYTES } from '@/server/shared/http-limits';
import { appRouter } from '@/server/root';
import type { HeraldMeta } from '@/server/trpc/meta';
import { env } from '@/server/config/env';
import { PUBLIC_API_PREFIX } from './rest-handler';
import { routeErrorCodes } from './route-errors';

export const CONTRACT_VERSION = '0.1.0';

/** What Herald accepts at the HTTP level, and what the HTTP server answers before Herald runs. */
const TRANSPORT =
  `Limits: the request line and headers together at most ${MAX_HTTP_HEADER_BYTES} bytes; ` +
  `the path and query string at most ${MAX_URL_BYTES} bytes (414, flat body); a JSON body at most ${MAX_BODY_BYTES} bytes (413, flat body), ` +
  `sent as \`Content-Type: application/json\` (415, flat body, for anything else); \`Authorization\` at most ${MAX_AUTHORIZATION_LENGTH} characters (401); ` +
  `\`Idempotency-Key\` 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters or spaces (400 VALIDATION_FAILED). ` +
  'Text fields refuse U+0000 and unpaired surrogates (400, flat body). ' +
  'Some requests cannot be parsed into a request at all; Herald’s server answers them in the flat body and closes the connection: ' +
  `431 when the request line and headers exceed ${MAX_HTTP_HEADER_BYTES} bytes (a very long URL included), ` +
  '400 for a request HTTP/1.1 cannot parse, such as a control character in a header value, and 408 for one that does not arrive in time.';

type Json = Record<string, unknown>;

function proceduresByRoute(): Map<string, HeraldMeta> {
  const out = new Map<string, HeraldMeta>();
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { meta?: HeraldMeta } }> } })._def.procedures;
  for (const proc of Object.values(procedures)) {
    const meta = proc._def.meta;
    if (meta?.openapi) out.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, meta);
  }
  return out;
}

function statusesOf(code: ErrorCode): number[] {
  const entry = ERROR_CATALOGUE[code] as { status: number; altStatuses?: readonly number[] };
  return [entry.status, ...(entry.altStatuses ?? [])];
}

function errorResponses(codes: ErrorCode[]): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) for (const s of statusesOf(code)) byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
  const responses: Json = {};
  for (const [status, list] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    const flat = list.filter((c) => ERROR_CATALOGUE[c].shape === 'flat');
    const enveloped = list.filter((c) => ERROR_CATALOGUE[c].shape === 'envelope');
    const schemas: Json[] = [];
    if (enveloped.length) {
      schemas.push({
        allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }],
        properties: { error: { type: 'object', properties: { code: { type: 'string', enum: enveloped } } } },
      });
    }
    if (flat.length) schemas.push({ $ref: status === 400 ? '#/components/schemas/ValidationError' : '#/components/schemas/FlatError' });
    const headers: Json = {};
    if (status === 429) {
      headers['Retry-After'] = { description: 'Seconds until the budget refills.', schema: { type: 'integer' } };
    }
    if (list.includes('SERVICE_UNAVAILABLE')) {
      headers['Retry-After'] = {
        description: 'With SERVICE_UNAVAILABLE: seconds to wait before retrying (with the same Idempotency-Key).',
        schema: { type: 'integer' },
      };
    }
    responses[String(status)] = {
      description: list.map((c) => `${c}: ${ERROR_CATALOGUE[c].description}`).join(' | '),
      ...(Object.keys(headers).length ? { headers } : {}),
      content: { 'application/json': { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas } } },
    };
  }
  return responses;
}

const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Policy': { description: 'IETF RateLimit-Policy: the workspace budget, e.g. `"workspace";q=600;w=60`.', schema: { type: 'string' } },
  RateLimit: { description: 'IETF RateLimit: remaining requests and seconds to reset, e.g. `"workspace";r=599;t=42`.', schema: { type: 'string' } },
};

export function buildOpenApiDocument(): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Herald public API',
    description:
      'Multi-channel social publishing and analytics. Authenticate with `Authorization: Bearer sk_live_…`. ' +
      'Writes answer `{ data, warnings }`, reads `{ data }`, lists `{ data, page, limit, total }`. ' +
      'Errors answer `{ error: { code, message, field? } }`; schema validation, authentication and rate-limit failures answer a flat `{ statusCode, message, error }`. ' +
      TRANSPORT,
    version: CONTRACT_VERSION,
    baseUrl: `${env.baseUrl()}${PUBLIC_API_PREFIX}`,
    securitySchemes: {
      ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The API key as `Bearer sk_live_…`.' },
    },
  }) as unknown as Json;

  const metas = proceduresByRoute();
  const paths = doc.paths as Record<string, Record<string, Json>>;
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const meta = metas.get(`${method} ${path}`);
      if (!meta) continue;
      const isWrite = method !== 'get';
      const responses = op.responses as Record<string, Json>;
      const success = responses['200'];
      delete responses['200'];
      for (const code of Object.keys(responses)) if (code !== 'default' && Number(code) >= 400) delete responses[code];
      delete responses.default;
      const status = meta.successStatus ?? 200;
      if (status === 204) {
        responses['204'] = { description: 'Done; no body.', headers: RATE_LIMIT_HEADERS };
      } else if (meta.produces === 'text/csv') {
        responses[String(status)] = {
          description: 'A CSV file (RFC 4180, UTF-8, CRLF line ends, a header row); an empty cell is no value.',
          headers: RATE_LIMIT_HEADERS,
          content: { 'text/csv': { schema: { type: 'string' } } },
        };
      } else {
        responses[String(status)] = { ...success, headers: RATE_LIMIT_HEADERS };
      }
      const protectedRoute = meta.openapi?.protect !== false;
      Object.assign(responses, errorResponses(routeErrorCodes(meta, isWrite)));

      const params = (op.parameters as Json[] | undefined) ?? [];
      if (protectedRoute && meta.workspaceHeader !== 'forbidden') {
        params.push({
          name: HEADERS.workspace,
          in: 'header',
          required: false,
          description: 'Act for a workspace this key’s workspace manages (agency keys).',
          schema: { type: 'string', format: 'uuid' },
        });
      }
      if (isWrite) {
        params.push({
          name: HEADERS.idempotencyKey,
          in: 'header',
          required: false,
          description: `Replays the first response of the same request for ${env.idempotencyTtlHours()} hours. Visible ASCII characters and spaces.`,
          schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: '^[ -~]+$' },
        });
      }
      if (params.length) op.parameters = params;
      op.operationId ??= `${method}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
    }
  }

  const components = doc.components as Json & { schemas?: Json };
  components.schemas = {
    ...(components.schemas ?? {}),
    ErrorEnvelope: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE).filter((c) => ERROR_CATALOGUE[c as ErrorCode].shape === 'envelope') },
            message: { type: 'string' },
            field: { type: 'string' },
          },
        },
      },
    },
    FlatError: {
      type: 'object',
      required: ['statusCode', 'message', 'error'],
      properties: { statusCode: { type: 'integer' }, message: { type: 'string' }, error: { type: 'string' } },
    },
    ValidationError: {
      type: 'object',
      required: ['statusCode', 'message', 'error'],
      properties: {
        statusCode: { type: 'integer', enum: [400] },
        message: { type: 'array', items: { type: 'string' }, description: 'One readable message per problem.' },
        error: { type: 'string', enum: ['Bad Request'] },
      },
    },
  };
  doc.security = [{ ApiKey: [] }];
  return doc as unknown as OpenAPIObject;
}

let cached: OpenAPIObject | undefined;
/** Built once per process: the router does not change at runtime. */
export function getOpenApiDocument(): OpenAPIObject {
  cached ??= buildOpenApiDocument();
  return cached;
}
