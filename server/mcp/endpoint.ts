// The tool endpoint, /public/v1/mcp: JSON-RPC 2.0 over Streamable HTTP with the protocol
// SDK's server. Each POST is handed to a pooled SDK server through Herald's JSON exchange
// (json-exchange.ts) and answered with JSON; the session (id, key, workspace, protocol
// version, toolsets) lives in PostgreSQL (sessions.ts), so any instance answers any request of a session. Authentication is the
// REST key check with the REST 401 body; every tool call runs the REST route's procedure
// (callProcedure) with its scope, workspace header, rate limit and idempotency rules.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type InitializeRequest,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { authenticateApiKey, bearerKeyOf, type KeyPrincipal } from '@/server/auth/authenticate-key';
import { selectWorkspace } from '@/server/auth/workspace-selection';
import { toErrorResponse } from '@/server/errors/http';
import { bytesResponse, jsonResponse, knownResponse, lowerCased, utf8Bytes } from '@/server/http/response-bytes';
import { isInitialize, JsonExchange, postProblem } from './json-exchange';
import { callProcedure } from '@/server/http/procedure-call';
import { readBytes, utf8Text } from '@/server/http/request-input';
import { AppError } from '@/server/errors/app-error';
import { protectedResourceMetadataUrl, resourceUrl } from '@/server/oauth/oauth';
import { MAX_BODY_BYTES } from '@/server/shared/http-limits';
import { HEADERS } from '@/server/shared/headers';
import { createRequestContext } from '@/server/trpc/context';
import { errorCatalogueJson, getPrompt, OUTPUT_SCHEMA_TEMPLATE, OUTPUT_SCHEMA_URI, PROMPTS, RESOURCES } from './prompts';
import { subscribeSession, type SessionEvent } from './session-events';
import { authenticateSessionRequest, endSession, linkSessionPost, openSession, type McpSessionRecord } from './sessions';
import { answerJson, errorResult, successResult } from './tool-results';
import { tools, toolsFor, type ToolDefinition } from './tools';
import { DEFAULT_TOOLSETS, effectiveToolsets, inToolsets, parseToolsets, TOOLSETS_HEADER, TOOLSETS_PARAM, toolsetOf, type ToolsetName } from './toolsets';
import { db } from '@/server/db/client';
import { checkOrigin } from './origin';
import { log } from '@/server/observability/log';
import { observeRequest } from '@/server/observability/metrics';
import { withRequestId } from '@/server/observability/request-id';

export const SESSION_HEADER = 'mcp-session-id';
const SERVER_INFO = { name: 'herald', title: 'Herald', version: '1.0.0' };
const INSTRUCTIONS =
  'Herald publishes and schedules social media posts for a workspace and reports their outcomes. ' +
  'Reads and drafts run at once. Publishing, scheduling, cancelling, deleting and other actions with an external effect are usually staged: ' +
  'the result gives an actionId that a member confirms in Herald; follow up with proposals_get. A call that could not run is refused at once, never staged. ' +
  'Errors are results with isError and { error: { code, message, hint } } (the REST codes); the resource herald://errors lists every code with what to do next. ' +
  'A tool’s output schema is the resource herald://tools/{name}/output-schema. Pass idempotencyKey on writes you might retry. ' +
  'tools/list shows the toolsets this session opened with; a tool of another toolset answers an error naming it.';
const KEEP_ALIVE_MS = 15_000;

/**
 * A JSON-RPC error from a handler. The SDK sends a thrown error's message as is, and its
 * client prefixes "MCP error <code>: " when it raises it; throwing the SDK's McpError, whose
 * message already carries that prefix, made clients show it twice.
 */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
/** MCP's code for a resource URI the server does not have. */
const RESOURCE_NOT_FOUND = -32002;
/**
 * Herald refused a request that is not a tool call (a resource read) for one of its own
 * reasons: `data` is the same `{ error: { code, message, … } }` a tool call would answer
 * with isError (SCOPE_MISSING, RATE_LIMITED …), so both read alike.
 */
export const HERALD_REFUSAL = -32003;

interface CallScope {
  principal: KeyPrincipal;
  session: McpSessionRecord | null;
  /** The session's toolsets (at initialize: the ones it opens with). */
  toolsets: ToolsetName[];
  headers: Headers;
  /** The JSON texts of this request's tool results (successResult): written once (answerJson). */
  structuredJson: Set<string>;
}

function httpError(err: unknown): Response {
  const mapped = toErrorResponse(err);
  if (mapped.code === 'INTERNAL_ERROR') log.error('mcp', 'unexpected error', err);
  const headers = { ...mapped.headers };
  // The same 401 body and challenge as REST (server/auth/authenticate-key.ts); the challenge
  // also names the protected-resource metadata, so a tool client without a key, or whose
  // token lapsed, can start the OAuth sign-in (server/oauth).
  if (mapped.code === 'UNAUTHORIZED')
    headers['WWW-Authenticate'] = `${headers['WWW-Authenticate'] ?? 'Bearer realm="herald"'}, resource_metadata="${protectedResourceMetadataUrl()}"`;
  return jsonResponse(mapped.body, mapped.status, headers);
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ jsonrpc: '2.0', error: { code, message }, id: null }, status, headers);
}

/** What tools/list shows: what the key's scopes allow, of the session's toolsets. */
function listedTools(scope: CallScope): ToolDefinition[] {
  return toolsFor(scope.principal.scopes).filter((t) => inToolsets(t.name, scope.toolsets));
}

/**
 * A tool the session's toolsets leave out is not run, whatever the key's scopes: the refusal
 * names its toolset and how to enable it, so an assistant (or its member) can reconnect.
 */
function checkToolset(scope: CallScope, name: string): void {
  const toolset = toolsetOf(name);
  if (!tools().has(name) || !toolset || scope.toolsets.includes(toolset)) return;
  const wanted = [...scope.toolsets, toolset].join(',');
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Tool ${name} is in the toolset "${toolset}", which this session did not enable (it has ${scope.toolsets.join(', ')}). ` +
      `Enable it: connect to ${resourceUrl()}?${TOOLSETS_PARAM}=${wanted} (or send the header X-MCP-Toolsets: ${wanted}, or choose it when signing in to Herald), then start a new session.`,
    { toolset, enabled: scope.toolsets },
  );
}

async function callTool(scope: CallScope, name: string, rawArgs: Record<string, unknown>): Promise<CallToolResult> {
  const tool: ToolDefinition | undefined = tools().get(name);
  if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}. tools/list shows the tools this key may call.`);
  const { idempotencyKey, ...args } = rawArgs;
  // The Idempotency-Key a mutation runs with: the argument, else the request's header; a read
  // runs with none. The request's headers are copied only when that changes them.
  const sent = scope.headers.get(HEADERS.idempotencyKey);
  const key = tool.route.type === 'mutation' ? (typeof idempotencyKey === 'string' ? idempotencyKey : sent) : null;
  let headers = scope.headers;
  if (key !== sent) {
    headers = new Headers(scope.headers);
    if (key === null) headers.delete(HEADERS.idempotencyKey);
    else headers.set(HEADERS.idempotencyKey, key);
  }
  // Invalid arguments are never staged: they run, and fail exactly as over REST.
  const stageable = tool.stageable && (!tool.route.input || tool.route.input.safeParse(args).success);
  const ctx = createRequestContext({
    transport: 'mcp',
    headers,
    principal: scope.principal,
    assistant: { sessionId: scope.session?.id ?? null, toolName: name, stageable },
  });
  try {
    const data = await callProcedure(ctx, tool.route.procedure, tool.route.input ? args : undefined);
    if (tool.route.procedure === 'posts.create' && ctx.response.status !== 202 && scope.session) {
      const postId = (data as { data?: { id?: string } }).data?.id;
      if (postId) await linkSessionPost(scope.session.id, postId);
    }
    const { result, structuredJson } = successResult(data, ctx);
    if (structuredJson !== undefined) scope.structuredJson.add(structuredJson);
    return result;
  } catch (err) {
    return errorResult(err);
  }
}

/**
 * An SDK server with Herald's handlers, connected to its own exchange, serving one HTTP
 * request at a time. Building one costs about as much as the rest of a tool call, so idle
 * ones are kept: the handlers read the request they serve from `scope`, set while it is
 * checked out.
 */
interface PooledServer {
  server: Server;
  exchange: JsonExchange;
  scope: CallScope | undefined;
}
const idleServers: PooledServer[] = [];
const MAX_IDLE_SERVERS = 16;

function acquireServer(scope: CallScope): PooledServer {
  const entry = idleServers.pop() ?? buildServer();
  entry.scope = scope;
  return entry;
}

function releaseServer(entry: PooledServer): void {
  entry.scope = undefined;
  if (idleServers.length < MAX_IDLE_SERVERS) idleServers.push(entry);
}

function buildServer(): PooledServer {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, prompts: {}, resources: {}, logging: {} }, instructions: INSTRUCTIONS });
  const entry: PooledServer = { server, exchange: new JsonExchange(), scope: undefined };
  const current = (): CallScope => {
    if (!entry.scope) throw new RpcError(ErrorCode.InternalError, 'No request in progress');
    return entry.scope;
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: listedTools(current()).map((t) => ({
      name: t.name,
      // No title: it is the description's first line (the route's summary) again.
      description: t.description,
      inputSchema: t.inputSchema,
      // No outputSchema: the 51 of them were over 170 KB of every assistant's context before
      // its first call. Results still carry structuredContent (and the same JSON as text);
      // the schema is one resource read away (herald://tools/{name}/output-schema).
      annotations: t.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    checkToolset(current(), request.params.name);
    return callTool(current(), request.params.name, request.params.arguments ?? {});
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = getPrompt(request.params.name, request.params.arguments ?? {});
    if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}. prompts/list shows the prompts.`);
    return prompt;
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [OUTPUT_SCHEMA_TEMPLATE] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    if (uri === 'herald://errors') return { contents: [{ uri, mimeType: 'application/json', text: errorCatalogueJson() }] };
    const toolName = OUTPUT_SCHEMA_URI.exec(uri)?.[1];
    const tool = toolName ? listedTools(current()).find((t) => t.name === toolName) : undefined;
    if (tool)
      return {
        contents: [
          { uri, mimeType: 'application/schema+json', text: JSON.stringify(tool.outputSchema ?? { description: 'No body: the tool answers "Done."' }) },
        ],
      };
    if (uri === 'herald://workspace/connections') {
      const result = await callTool(current(), 'connections_list', {});
      if (result.isError) {
        const body = JSON.parse((result.content[0] as { text: string }).text) as { error: { message: string } };
        throw new RpcError(HERALD_REFUSAL, body.error.message, body);
      }
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result.structuredContent) }] };
    }
    throw new RpcError(RESOURCE_NOT_FOUND, `Unknown resource: ${uri}. resources/list shows the resources.`, { uri });
  });
  // Connecting sets the server's handlers on the exchange at once; its start() does nothing.
  void server.connect(entry.exchange);
  return entry;
}

/**
 * How large a POST may be: the API's general limit, or a tool's route's own where it is larger
 * (the import routes read a file): the same meta.maxBodyBytes REST applies to those routes.
 */
interface BodyLimits {
  largest: number;
  /** The limit of each tool allowed more than the general one. */
  larger: ReadonlyMap<string, number>;
}
let bodyLimits: BodyLimits | undefined;
function limits(): BodyLimits {
  if (bodyLimits) return bodyLimits;
  const larger = new Map<string, number>();
  for (const [name, tool] of tools()) {
    const limit = tool.route.meta.maxBodyBytes;
    if (limit !== undefined && limit > MAX_BODY_BYTES) larger.set(name, limit);
  }
  return (bodyLimits = { largest: Math.max(MAX_BODY_BYTES, ...larger.values()), larger });
}

function tooLargeError(): Response {
  const byLimit = new Map<number, string[]>();
  for (const [name, limit] of limits().larger) byLimit.set(limit, [...(byLimit.get(limit) ?? []), name]);
  const exceptions = [...byLimit].map(([limit, names]) => `${limit} for ${names.join(' and ')}`).join(', ');
  return jsonRpcError(413, -32000, `Payload too large: the request body may be at most ${MAX_BODY_BYTES} bytes${exceptions ? ` (${exceptions})` : ''}`);
}

/** Whether a body of `size` bytes may carry these messages: over the general limit, only calls of tools allowed that much. */
function sizeAllowed(messages: JSONRPCMessage[], size: number): boolean {
  if (size <= MAX_BODY_BYTES) return true;
  return messages.every((m) => {
    if (!('method' in m) || m.method !== 'tools/call') return false;
    const name = (m.params as { name?: unknown } | undefined)?.name;
    return typeof name === 'string' && (limits().larger.get(name) ?? 0) >= size;
  });
}

/** The body as JSON with its size, or why not: too large (413) or not JSON (400), answered after the key check. */
async function readMessages(req: Request): Promise<{ body: unknown; size: number } | { tooLarge: true } | { notJson: true }> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(req, limits().largest);
  } catch (err) {
    if (err instanceof AppError && err.code === 'PAYLOAD_TOO_LARGE') return { tooLarge: true };
    throw err;
  }
  const text = utf8Text(bytes);
  try {
    if (text !== null) return { body: JSON.parse(text) as unknown, size: bytes.byteLength };
  } catch {
    // not JSON
  }
  return { notJson: true };
}

async function handlePost(req: Request): Promise<Response> {
  const authorization = req.headers.get('authorization');
  const sessionId = req.headers.get(SESSION_HEADER);
  const read = await readMessages(req);
  if (!('body' in read)) {
    // The key is checked first all the same: no key, no answer beyond the 401.
    try {
      bearerKeyOf(authorization);
    } catch (err) {
      return httpError(err);
    }
    if ('tooLarge' in read) return tooLargeError();
    return jsonRpcError(400, ErrorCode.ParseError, 'Parse error: the body is not JSON');
  }
  const { body } = read;
  // The first message that is an initialize, read before the key check picks its path; the
  // messages themselves are checked once the key is (postProblem).
  const initialize = (Array.isArray(body) ? body : [body]).find(isInitialize) as InitializeRequest | undefined;

  let principal: KeyPrincipal;
  let session: McpSessionRecord | null = null;
  let workspaceId: string;
  try {
    if (initialize || !sessionId) {
      principal = await authenticateApiKey(authorization, resourceUrl());
      if (!initialize) return jsonRpcError(400, ErrorCode.InvalidRequest, 'Bad Request: send the Mcp-Session-Id header from initialize');
      workspaceId = await selectWorkspace({ homeWorkspaceId: principal.workspaceId, headerValue: req.headers.get(HEADERS.workspace), headerForbidden: false });
    } else {
      ({ principal, session } = await authenticateSessionRequest(authorization, sessionId));
      if (!session) return jsonRpcError(404, ErrorCode.InvalidRequest, 'Session not found: it ended or never existed; initialize a new one');
      workspaceId = session.workspaceId;
    }
  } catch (err) {
    return httpError(err);
  }

  const messages = postProblem(req.headers, body);
  if (!Array.isArray(messages)) return jsonRpcError(messages.status, messages.code, messages.message);
  if (!sizeAllowed(messages, read.size)) return tooLargeError();
  let toolsets: ToolsetName[];
  if (session) toolsets = session.toolsets;
  else {
    const chosen = await chosenToolsets(req, principal);
    // The initialize's own error answer (200, as the SDK answers a handler's error): clients
    // show its message as is, where a 4xx makes some retry the legacy SSE transport instead.
    if ('error' in chosen)
      return jsonResponse({ jsonrpc: '2.0', error: { code: ErrorCode.InvalidParams, message: chosen.error }, id: idOf(messages[0]) }, 200, {});
    toolsets = chosen.toolsets;
  }
  const scope: CallScope = { principal, session, toolsets, headers: req.headers, structuredJson: new Set() };
  const entry = acquireServer(scope);
  let answers: JSONRPCMessage[];
  try {
    answers = await entry.exchange.exchange(messages);
  } finally {
    releaseServer(entry);
  }
  // Notifications and responses only: accepted, nothing to answer.
  if (answers.length === 0) return bytesResponse(null, 202, {});
  // One answer is sent as itself, several as a list (as the SDK transport does).
  const parts =
    answers.length === 1
      ? answerJson(answers[0]!, scope.structuredJson)
      : ['[', ...answers.flatMap((a, i) => [...(i === 0 ? [] : [',']), ...answerJson(a, scope.structuredJson)]), ']'];
  const response = bytesResponse(utf8Bytes(parts), 200, { 'content-type': 'application/json' });
  // An initialize comes alone (postProblem): the session opens when it succeeded.
  if (!initialize || !('result' in answers[0]!)) return response;
  const requested = initialize.params.protocolVersion;
  const newSessionId = await openSession({
    keyId: principal.keyId,
    workspaceId,
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
    clientName: initialize.params.clientInfo?.name?.slice(0, 200) ?? null,
    toolsets,
  });
  return withHeaders(response, { 'Mcp-Session-Id': newSessionId });
}

const idOf = (message: JSONRPCMessage | undefined) => (message && 'id' in message ? message.id : null);

/**
 * The toolsets a session opens with: the endpoint URL's `?toolsets=`, else the
 * `X-MCP-Toolsets` header, else those stored on the key (an assistant connection's member
 * chose them at consent), else the default. An unknown name is refused, never ignored.
 */
async function chosenToolsets(req: Request, principal: KeyPrincipal): Promise<{ toolsets: ToolsetName[] } | { error: string }> {
  const query = new URL(req.url).searchParams.getAll(TOOLSETS_PARAM).join(',');
  for (const value of [query, req.headers.get(TOOLSETS_HEADER) ?? '']) {
    const parsed = parseToolsets(value);
    if ('error' in parsed)
      return { error: `${parsed.error}. Choose them with ${resourceUrl()}?${TOOLSETS_PARAM}=publishing,inbox or the X-MCP-Toolsets header.` };
    if (parsed.toolsets) return { toolsets: parsed.toolsets };
  }
  const key = await db.apiKey.findUnique({ where: { id: principal.keyId }, select: { toolsets: true } });
  return { toolsets: key?.toolsets.length ? effectiveToolsets(key.toolsets) : [...DEFAULT_TOOLSETS] };
}

async function sessionOf(req: Request): Promise<{ principal: KeyPrincipal; session: McpSessionRecord } | Response> {
  const id = req.headers.get(SESSION_HEADER);
  try {
    if (!id) {
      await authenticateApiKey(req.headers.get('authorization'), resourceUrl());
      return jsonRpcError(400, ErrorCode.InvalidRequest, 'Bad Request: send the Mcp-Session-Id header from initialize');
    }
    const { principal, session } = await authenticateSessionRequest(req.headers.get('authorization'), id);
    if (!session) return jsonRpcError(404, ErrorCode.InvalidRequest, 'Session not found: it ended or never existed; initialize a new one');
    return { principal, session };
  } catch (err) {
    return httpError(err);
  }
}

function notificationOf(event: SessionEvent): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: {
      level: event.status === 'failed' ? 'warning' : 'info',
      logger: 'herald',
      data: { event: event.kind, postId: event.postId, status: event.status },
    },
  };
}

/** GET: the session's standalone event stream (server-sent events). */
async function handleGet(req: Request): Promise<Response> {
  if (!(req.headers.get('accept') ?? '').includes('text/event-stream')) {
    return jsonRpcError(406, ErrorCode.InvalidRequest, 'Not Acceptable: the event stream needs Accept: text/event-stream');
  }
  const found = await sessionOf(req);
  if (found instanceof Response) return found;
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          cleanup();
        }
      };
      const unsubscribe = await subscribeSession(found.session.id, (event) => send(`event: message\ndata: ${JSON.stringify(notificationOf(event))}\n\n`));
      const timer = setInterval(() => send(': keep-alive\n\n'), KEEP_ALIVE_MS);
      cleanup = () => {
        clearInterval(timer);
        unsubscribe();
      };
      send(': stream open\n\n');
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'Mcp-Session-Id': found.session.id },
  });
}

/** DELETE: ends the session; later requests with its id answer 404. */
async function handleDelete(req: Request): Promise<Response> {
  const found = await sessionOf(req);
  if (found instanceof Response) return found;
  await endSession(found.session.id, found.principal.keyId);
  return new Response(null, { status: 200 });
}

export function handleMcp(req: Request): Promise<Response> {
  return withRequestId(req, async () => {
    const started = performance.now();
    const origin = checkOrigin(req);
    let response: Response;
    if (!origin.allowed) {
      // Before the key and the session: a refused origin learns nothing else.
      response = jsonRpcError(
        403,
        ErrorCode.InvalidRequest,
        `Forbidden: the Origin ${origin.origin} may not call this endpoint (HERALD_BASE_URL and MCP_ALLOWED_ORIGINS may)`,
      );
    } else {
      response = req.method === 'OPTIONS' ? new Response(null, { status: 204 }) : await respond(req);
      response = withHeaders(response, origin.cors);
    }
    observeRequest('mcp', `${req.method} /mcp`, response.status, (performance.now() - started) / 1000);
    return response;
  });
}

/** Adds headers to an answer whose own headers may be immutable (the SDK's, fetch's). */
function withHeaders(response: Response, extra: Record<string, string>): Response {
  const names = Object.keys(extra);
  if (names.length === 0) return response;
  const known = knownResponse(response);
  if (known) {
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return bytesResponse(known.body, response.status, { ...headers, ...lowerCased(extra) });
  }
  const headers = new Headers(response.headers);
  for (const name of names) headers.set(name, extra[name]!);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function respond(req: Request): Promise<Response> {
  try {
    switch (req.method) {
      case 'POST':
        return await handlePost(req);
      case 'GET':
        return await handleGet(req);
      case 'DELETE':
        return await handleDelete(req);
      default:
        return jsonRpcError(405, ErrorCode.InvalidRequest, 'Method not allowed', { Allow: 'GET, POST, DELETE, OPTIONS' });
    }
  } catch (err) {
    return httpError(err);
  }
}
