// The server side of one Streamable HTTP POST answered with JSON, as an SDK transport: the
// endpoint hands it the request's JSON-RPC messages, the SDK's protocol server (server/mcp/
// endpoint.ts) answers them through send(), and the answers come back as one JSON body.
//
// Why Herald's own and not the SDK's WebStandardStreamableHTTPServerTransport: Herald already
// owns everything that transport adds around a POST for this endpoint — sessions live in
// PostgreSQL (sessions.ts), the event stream and DELETE are Herald's, answers are always JSON
// — so what was left of it per tool call was overhead: a transport built, connected and
// closed per request (closing makes an error object with its stack), the answer turned into
// a Web Response and read back, every message checked against zod schemas twice more. Here a
// pooled server stays connected to its exchange, and the answer is serialized once
// (docs/performance.md, step 14). The POST rules that transport applied are kept, with its
// statuses and messages: postProblem below.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import {
  isInitializeRequest,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { isJsonContentType } from '@/server/shared/headers';

/**
 * An initialize request (the SDK's check), asked of the method first: the schema check of
 * every other message fails, and a failing zod parse builds its issues for nothing.
 */
export function isInitialize(message: unknown): boolean {
  return (message as { method?: unknown } | null)?.method === 'initialize' && isInitializeRequest(message);
}

/** A refusal of the POST itself, before any message is handled: HTTP status, JSON-RPC code, message. */
export interface PostProblem {
  status: number;
  code: number;
  message: string;
}

/**
 * What makes a POST unanswerable before its messages are dispatched, in the order the SDK's
 * Streamable HTTP transport checks them (same statuses, codes and messages, so clients see
 * what they would from any server built on it): the Accept header, the Content-Type, the batch
 * size, each message's JSON-RPC shape, one initialize per request, the protocol version header.
 * Returns the messages when none applies.
 */
export function postProblem(headers: Headers, body: unknown): PostProblem | JSONRPCMessage[] {
  const accept = headers.get('accept');
  // Accept is a list: both types must appear in it.
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream'))
    return { status: 406, code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' };
  if (!isJsonContentType(headers.get('content-type')))
    return { status: 415, code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' };
  if (Array.isArray(body) && body.length > MAX_BATCH_SIZE)
    return { status: 400, code: -32600, message: `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages` };
  const messages: JSONRPCMessage[] = [];
  for (const raw of Array.isArray(body) ? body : [body]) {
    const parsed = JSONRPCMessageSchema.safeParse(raw);
    if (!parsed.success) return { status: 400, code: -32700, message: 'Parse error: Invalid JSON-RPC message' };
    messages.push(parsed.data);
  }
  if (messages.some(isInitialize)) {
    if (messages.length > 1) return { status: 400, code: -32600, message: 'Invalid Request: Only one initialization request is allowed' };
  } else {
    const version = headers.get('mcp-protocol-version');
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
      return {
        status: 400,
        code: -32000,
        message: `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      };
  }
  return messages;
}

/**
 * One protocol server's transport, reused for one HTTP request after another (the endpoint's
 * pool serves one request at a time per server, so request ids cannot collide). Messages the
 * server sends that answer no request of the exchange (notifications, requests to the client)
 * have no stream to go to and are dropped, as in the SDK transport's JSON mode.
 */
export class JsonExchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly waiting = new Map<RequestId, (answer: JSONRPCMessage) => void>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.waiting.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || message.id === undefined || !('result' in message || 'error' in message)) return;
    const answer = this.waiting.get(message.id);
    if (!answer) return;
    this.waiting.delete(message.id);
    answer(message);
  }

  /**
   * Hands the messages to the server and resolves with the answers to its requests, in their
   * order; an empty list when there are none (notifications and responses only: HTTP 202).
   */
  exchange(messages: JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
    const answers = messages.filter(isJSONRPCRequest).map((request) => new Promise<JSONRPCMessage>((resolve) => this.waiting.set(request.id, resolve)));
    for (const message of messages) this.onmessage?.(message);
    return Promise.all(answers);
  }
}
