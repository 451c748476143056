// The contract document, generated from the router and completed from route meta:
// trpc-to-openapi declares every success as 200 with generic errors, so we set each
// route's success status and its description, its error responses (from the error
// catalogue, in the route's own words where meta.errorWhen gives them), the
// Idempotency-Key / workspace headers, parameter descriptions from the input schema,
// examples (openapi-examples.ts), the tags, and the `webhooks` section.
import { z } from 'zod';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { ERROR_CATALOGUE, REASON_PHRASES, type ErrorCode } from '@/server/errors/catalogue';
import { HEADERS } from '@/server/shared/headers';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '@/server/idempotency/idempotency';
import { MAX_AUTHORIZATION_LENGTH, MAX_BODY_BYTES, MAX_HTTP_HEADER_BYTES, MAX_URL_BYTES } from '@/server/shared/http-limits';
import { appRouter } from '@/server/root';
import { env } from '@/server/config/env';
import { webhooksSection } from '@/server/webhooks/webhooks-openapi';
import { PUBLIC_API_PREFIX } from './rest-handler';
import { exampleFor } from './openapi-examples';
import { restRoutes, type RestRoute } from './rest-routes';
import { routeErrorCodes } from './route-errors';

export const CONTRACT_VERSION = '0.1.0';

/** What Herald accepts at the HTTP level, and what the HTTP server answers before Herald runs. */
const TRANSPORT =
  `Limits: the request line and headers together at most ${MAX_HTTP_HEADER_BYTES} bytes; ` +
  `the path and query string at most ${MAX_URL_BYTES} bytes (414, flat body); a JSON body at most ${MAX_BODY_BYTES} bytes (413, flat body), ` +
  `sent as \`Content-Type: application/json\` (415, flat body, for anything else); \`Authorization\` at most ${MAX_AUTHORIZATION_LENGTH} characters (401); ` +
  `\`Idempotency-Key\` 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters or spaces (400 VALIDATION_FAILED). ` +
  'Text fields refuse U+0000 and unpaired surrogates (400, flat body). ' +
  'Some requests cannot be parsed into a request at all; Herald’s server answers them in the flat body and closes the connection, on every operation: ' +
  `431 REQUEST_HEADER_FIELDS_TOO_LARGE when the request line and headers exceed ${MAX_HTTP_HEADER_BYTES} bytes (a very long URL included), ` +
  '400 MALFORMED_REQUEST for a request HTTP/1.1 cannot parse, such as a control character in a header value (its `message` a list, as every flat 400’s), ' +
  'and 408 REQUEST_TIMEOUT for one that does not arrive in time.';

type Json = Record<string, unknown>;

function routesByKey(): Map<string, RestRoute> {
  return new Map(restRoutes().map((r) => [`${r.method.toLowerCase()} ${r.path}`, r]));
}

/** The tags, in the order a reader meets them, each with what it groups. */
const TAGS: { name: string; description: string }[] = [
  { name: 'Posts', description: 'Create, schedule, edit, cancel and publish posts to connected accounts, and read each account’s delivery.' },
  {
    name: 'Inbox',
    description:
      'The comments under the posts Herald published, read from each network on a schedule: list, read a conversation, reply through the network, hide, delete, like where the network allows it, and the team’s handling (docs/inbox.md).',
  },
  { name: 'Queue', description: 'The posting queue: weekly time slots per workspace or account; POST /posts with queue: true takes the next free one.' },
  { name: 'Settings', description: 'The workspace’s name, time zone, approval default and the brand its clients see; each change audited.' },
  { name: 'Media', description: 'Upload images and videos directly (presigned PUT) to attach to posts by id.' },
  { name: 'Connections', description: 'The social accounts the workspace connected, with their token health.' },
  { name: 'Webhooks', description: 'Endpoints that receive signed notifications of what happened; the payloads are under Webhooks.' },
  { name: 'Workspaces', description: 'Agency features: client workspaces this one manages, keys minted for them, and no-login client links.' },
  { name: 'API keys', description: 'Herald extension: the workspace’s own API keys.' },
  { name: 'Analytics', description: 'Ad-account totals, post results and best times, each with its provenance.' },
  { name: 'Crawl', description: 'The landing-page crawl: sites, tracked pages, visits and detected changes.' },
  {
    name: 'Evergreen',
    description: 'Published posts repeated through the posting queue at an interval, with rotating texts, never a duplicate inside a network’s window.',
  },
  { name: 'Feeds', description: 'RSS and Atom feeds the workspace follows: each new item becomes a draft or a queued post, once.' },
  { name: 'Links', description: 'Tracked links: the short links Herald puts in place of the links in posts (settings trackLinks), and their clicks.' },
  { name: 'Workflows', description: 'Built-in workflows run in the background, and their runs.' },
  { name: 'Staged actions', description: 'Calls an assistant made through the tool endpoint that wait for a member’s confirmation.' },
];

function statusesOf(code: ErrorCode, when: Partial<Record<number, string>> | undefined): number[] {
  const entry = ERROR_CATALOGUE[code] as { status: number; altStatuses?: readonly number[]; altStatusesPerRoute?: boolean };
  if (when) return [...new Set([entry.status, ...Object.keys(when).map(Number)])];
  return [entry.status, ...(entry.altStatusesPerRoute ? [] : (entry.altStatuses ?? []))];
}

/**
 * When this route answers the code, in its words: meta.errorWhen, else what the route's shape
 * implies (a write's Idempotency-Key, a body's schema), else the catalogue's sentence.
 */
function conditionOf(code: ErrorCode, status: number, route: RestRoute): string {
  const own = route.meta.errorWhen?.[code];
  const text = typeof own === 'string' ? own : own?.[status];
  const isWrite = route.method !== 'GET';
  if (code === 'VALIDATION_FAILED' && status === ERROR_CATALOGUE.VALIDATION_FAILED.status) {
    const parts = [
      ...(text ? [text] : []),
      ...(route.meta.inputErrors === 'field' ? ['a query or path parameter is missing, malformed or unknown (field names it)'] : []),
      ...(isWrite && route.meta.openapi?.protect !== false
        ? [`the Idempotency-Key header is empty, over ${MAX_IDEMPOTENCY_KEY_LENGTH} characters or not visible ASCII (field: Idempotency-Key)`]
        : []),
    ];
    return parts.join('; ') || ERROR_CATALOGUE.VALIDATION_FAILED.description;
  }
  if (text) return text;
  if (code === 'BAD_REQUEST') {
    const where = route.takesBody ? 'The body' : route.pathParams.length ? 'A query or path parameter' : 'A query parameter';
    const extra = route.takesBody
      ? ' (an unknown field, a wrong JSON type, a missing required field, a text holding U+0000 or an unpaired surrogate), or the body is not a JSON object'
      : ' (an unknown parameter, or a value of the wrong form)';
    return `${where} failed schema validation${extra}; one message per problem.`;
  }
  return ERROR_CATALOGUE[code].description;
}

/**
 * The envelope's `error` object, in ErrorEnvelope and again in each error response with the
 * codes narrowed to that response's: one definition, so both read the same.
 */
function errorObject(codes: string[], codeDescription: string): Json {
  return {
    type: 'object',
    required: ['code', 'message'],
    description: 'What went wrong: a stable code to switch on, a message for people, and the offending input when there is one.',
    properties: {
      code: { type: 'string', enum: codes, description: codeDescription },
      message: { type: 'string', description: 'For people: what happened and what to do next. Switch on `code`, not on this text.' },
      field: {
        type: 'string',
        description: 'The offending input, as a path (`platformSettings.facebook.firstComment`) or a header name, when there is one.',
      },
    },
  };
}

function errorResponses(route: RestRoute): Json {
  const codes = routeErrorCodes(route.meta, route.method !== 'GET', route.takesBody);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const own = route.meta.errorWhen?.[code];
    for (const s of statusesOf(code, typeof own === 'object' ? own : undefined)) byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
  }
  const responses: Json = {};
  for (const [status, list] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    const flat = list.filter((c) => ERROR_CATALOGUE[c].shape === 'flat');
    const enveloped = list.filter((c) => ERROR_CATALOGUE[c].shape === 'envelope');
    const schemas: Json[] = [];
    if (enveloped.length) {
      schemas.push({
        allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }],
        // The whole `error` object again, narrowed to this response's codes: an example
        // validator that treats schemas as closed (Redocly's) sees every field it may hold.
        properties: {
          error: errorObject(enveloped, 'What went wrong, one of this response’s codes; stable for the life of v1.'),
        },
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
    const first = list[0]!;
    const example =
      ERROR_CATALOGUE[first].shape === 'flat'
        ? {
            statusCode: status,
            message:
              status !== 400
                ? ERROR_CATALOGUE[first].description
                : [first === 'BAD_REQUEST' ? 'content: Too small: expected string to have >=1 characters' : ERROR_CATALOGUE[first].description],
            error: REASON_PHRASES[status] ?? 'Error',
          }
        : { error: { code: first, message: conditionOf(first, status, route) } };
    responses[String(status)] = {
      description: list.map((c) => `${c}: ${conditionOf(c, status, route)}`).join(' | '),
      ...(Object.keys(headers).length ? { headers } : {}),
      content: { 'application/json': { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas }, example } },
    };
  }
  return responses;
}

/** The input schema's JSON form, for what the generator leaves out of parameters (descriptions, examples). */
function inputProperties(route: RestRoute): Record<string, Json> {
  if (!route.input) return {};
  const json = z.toJSONSchema(route.input, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  const object = (json.type === 'object' ? json : ((json.anyOf as Json[] | undefined)?.find((b) => b.type === 'object') ?? {})) as Json;
  return (object.properties ?? {}) as Record<string, Json>;
}

const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Policy': { description: 'IETF RateLimit-Policy: the workspace budget, e.g. `"workspace";q=600;w=60`.', schema: { type: 'string' } },
  RateLimit: { description: 'IETF RateLimit: remaining requests and seconds to reset, e.g. `"workspace";r=599;t=42`.', schema: { type: 'string' } },
};

/**
 * The server: the configured public address (HERALD_BASE_URL) when there is one, else the
 * relative `/public/v1`, which clients resolve against wherever they fetched the document —
 * never a guessed `localhost`.
 */
function serverUrl(): string {
  const configured = env.configuredBaseUrl();
  return configured ? `${configured}${PUBLIC_API_PREFIX}` : PUBLIC_API_PREFIX;
}

/**
 * What the reference says first of the client libraries (packages/ in Herald's repository):
 * the SDK in a few lines, then the command line and the n8n node.
 */
const CLIENT_LIBRARIES = `

## Client libraries

The TypeScript SDK \`@herald/sdk\` (\`packages/sdk\`) adds an Idempotency-Key to every write and keeps it across its retries after 429 and 503, pages through every list, uploads media in its three steps and verifies webhooks:

\`\`\`ts
import { createHerald, verifyWebhook } from '@herald/sdk';
const herald = createHerald({ apiKey: process.env.HERALD_API_KEY!, baseUrl: 'https://herald.example' });
const { data: post } = await herald.posts.create({ content: 'Our autumn menu is here', connectionIds: ['<connection id>'] });
await herald.posts.publish(post.id);
for await (const p of herald.posts.list({ status: 'published' })) console.log(p.id);
const event = await verifyWebhook(rawBody, request.headers, process.env.HERALD_WEBHOOK_SECRET!);
\`\`\`

From a terminal, the \`herald\` command line (\`packages/cli\`): \`herald login\`, \`herald posts create\`, \`herald webhooks listen\`. In n8n, the community nodes \`n8n-nodes-herald\` (\`packages/n8n-nodes-herald\`).`;

export function buildOpenApiDocument(): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Herald public API',
    description:
      'Multi-channel social publishing and analytics. Authenticate with `Authorization: Bearer sk_live_…`. ' +
      'Writes answer `{ data, warnings }`, reads `{ data }`, lists `{ data, page, limit, total }`. ' +
      'Errors answer `{ error: { code, message, field? } }`; schema validation, authentication and rate-limit failures answer a flat `{ statusCode, message, error }`. ' +
      'Switch on `error.code`: it is stable for the life of v1. ' +
      'Herald calls your endpoints too: the signed notifications it sends are described under Webhooks. ' +
      TRANSPORT +
      CLIENT_LIBRARIES,
    version: CONTRACT_VERSION,
    baseUrl: serverUrl(),
    // HTTP bearer, not an `apiKey` header: a client generated from the document (and the
    // reference's code samples) then sends `Authorization: Bearer <key>` itself; an `apiKey`
    // header would send the key bare, which Herald refuses (401).
    securitySchemes: {
      ApiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'sk_live_…',
        description: 'A Herald API key (`sk_live_…`), sent as `Authorization: Bearer sk_live_…`.',
      },
    },
  }) as unknown as Json;
  const reference = `${env.configuredBaseUrl() ?? ''}/api-reference`;
  doc.info = {
    ...(doc.info as Json),
    contact: { name: 'Herald API', ...(env.configuredBaseUrl() ? { url: reference } : {}) },
    license: { name: 'Proprietary: for use by Herald customers under their agreement', identifier: 'LicenseRef-Herald-Proprietary' },
  };
  (doc.servers as Json[])[0]!.description = 'This Herald deployment’s public API v1.';

  const components = doc.components as Json & { schemas?: Json };
  const resolve = (ref: string): Json | undefined => (components.schemas as Json | undefined)?.[ref.replace('#/components/schemas/', '')] as Json | undefined;
  const routes = routesByKey();
  const paths = doc.paths as Record<string, Record<string, Json>>;
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const route = routes.get(`${method} ${path}`);
      if (!route) continue;
      const meta = route.meta;
      const isWrite = method !== 'get';
      const responses = op.responses as Record<string, Json>;
      const success = responses['200'];
      delete responses['200'];
      for (const code of Object.keys(responses)) if (code !== 'default' && Number(code) >= 400) delete responses[code];
      delete responses.default;
      const status = meta.successStatus ?? 200;
      const said = meta.openapi?.successDescription;
      if (status === 204) {
        responses['204'] = { description: said ?? 'Done; no body.', headers: RATE_LIMIT_HEADERS };
      } else if (meta.produces === 'text/csv') {
        responses[String(status)] = {
          description: said ?? 'A CSV file (RFC 4180, UTF-8, CRLF line ends, a header row); an empty cell is no value.',
          headers: RATE_LIMIT_HEADERS,
          content: {
            'text/csv': {
              schema: { type: 'string' },
              example: 'postId,platform,publishedAt,impressions\r\n5b0f8f8e-2c7a-4c1e-9a57-0f6a1d3c2b11,linkedin,2026-11-24T09:00:00.000Z,1200\r\n',
            },
          },
        };
      } else {
        const content = success?.content as Record<string, Json> | undefined;
        const body = content?.['application/json'];
        if (body) body.example = exampleFor(body.schema, { resolve });
        responses[String(status)] = { ...success, headers: RATE_LIMIT_HEADERS };
      }
      Object.assign(responses, errorResponses(route));

      // A route without body fields reads no body (rest-routes.ts): it documents none.
      if (!route.takesBody) delete op.requestBody;
      const requestBody = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      const bodyMedia = requestBody?.['application/json'];
      if (bodyMedia) bodyMedia.example = exampleFor(bodyMedia.schema, { resolve });

      const declared = inputProperties(route);
      const params: Json[] = ((op.parameters as Json[] | undefined) ?? []).map((param): Json => {
        const fromInput = declared[param.name as string] ?? {};
        const schema = (param.schema ?? {}) as Json;
        return {
          ...param,
          description: param.description ?? schema.description ?? fromInput.description,
          example: exampleFor(fromInput.example !== undefined ? fromInput : schema, { resolve }, param.name as string),
        };
      });
      for (const param of params)
        if (!param.description) throw new Error(`${method} ${path}: parameter ${String(param.name)} has no description (describe it in the input schema)`);
      if (meta.openapi?.protect !== false && meta.workspaceHeader !== 'forbidden') {
        params.push({
          name: HEADERS.workspace,
          in: 'header',
          required: false,
          description: 'Act for a workspace this key’s workspace manages (agency keys); omit to act for the key’s own workspace.',
          schema: { type: 'string', format: 'uuid' },
        });
      }
      if (isWrite && meta.openapi?.protect !== false) {
        params.push({
          name: HEADERS.idempotencyKey,
          in: 'header',
          required: false,
          description: `Replays the first response of the same request for ${env.idempotencyTtlHours()} hours. Visible ASCII characters and spaces.`,
          schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: '^[ -~]+$' },
          example: 'create-post-2026-11-24-autumn-menu',
        });
      }
      if (params.length) op.parameters = params;
      op.operationId ??= `${method}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
    }
  }

  components.schemas = {
    ...(components.schemas ?? {}),
    ErrorEnvelope: {
      type: 'object',
      required: ['error'],
      description: 'An error raised by Herald itself. Switch on `code`.',
      properties: {
        error: errorObject(
          Object.keys(ERROR_CATALOGUE).filter((c) => ERROR_CATALOGUE[c as ErrorCode].shape === 'envelope'),
          'Stable for the life of v1: what clients switch on.',
        ),
      },
    },
    FlatError: {
      type: 'object',
      required: ['statusCode', 'message', 'error'],
      description: 'Authentication, rate-limit and transport failures.',
      properties: {
        statusCode: { type: 'integer', description: 'The HTTP status again.' },
        message: { type: 'string', description: 'What went wrong, for people.' },
        error: { type: 'string', description: 'The status’s reason phrase, e.g. `Unauthorized`.' },
      },
    },
    ValidationError: {
      type: 'object',
      required: ['statusCode', 'message', 'error'],
      description:
        'Every flat 400: schema validation of the body or query failed (BAD_REQUEST), or the request could not be read as HTTP/1.1 (MALFORMED_REQUEST).',
      properties: {
        statusCode: { type: 'integer', enum: [400], description: 'Always 400.' },
        message: {
          type: 'array',
          items: { type: 'string' },
          description: 'One readable message per problem, starting with the field’s path when a field is at fault.',
        },
        error: { type: 'string', enum: ['Bad Request'], description: 'The reason phrase.' },
      },
    },
  };
  dropUnreferencedSchemas(doc);
  doc.tags = TAGS;
  doc.webhooks = webhooksSection();
  for (const entry of Object.values(doc.webhooks as Record<string, { post: Json }>)) {
    const body = ((entry.post.requestBody as Json).content as Record<string, Json>)['application/json']!;
    body.example = exampleFor(body.schema, { resolve });
  }
  doc.security = [{ ApiKey: [] }];
  return doc as unknown as OpenAPIObject;
}

/**
 * The generator adds components no response uses (its own `error.*` shapes, which Herald
 * never sends, and schemas of routes that answer CSV): a reader would take them for part of
 * the contract.
 */
function dropUnreferencedSchemas(doc: Json): void {
  const schemas = (doc.components as Json).schemas as Json;
  for (;;) {
    const text = JSON.stringify({ ...doc, components: { ...(doc.components as Json), schemas: undefined } }) + JSON.stringify(schemas);
    const unused = Object.keys(schemas).filter((name) => !text.includes(`"#/components/schemas/${name}"`));
    if (!unused.length) return;
    for (const name of unused) delete schemas[name];
  }
}

let cached: OpenAPIObject | undefined;
/** Built once per process: the router does not change at runtime. */
export function getOpenApiDocument(): OpenAPIObject {
  cached ??= buildOpenApiDocument();
  return cached;
}
