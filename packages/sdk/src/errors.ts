// HeraldError: every refusal as one class, from either of Herald's two error bodies —
// the envelope `{ error: { code, message, field? } }` or the flat `{ statusCode, message, error }`
// (authentication, rate limits, schema validation, transport).
import type { ErrorCode } from './types.js';

/** Codes of the flat body, named from its status as Herald's error catalogue names them. */
export type FlatErrorCode =
  | 'UNAUTHORIZED'
  | 'RATE_LIMITED'
  | 'BAD_REQUEST'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'URI_TOO_LONG'
  | 'REQUEST_TIMEOUT'
  | 'REQUEST_HEADER_FIELDS_TOO_LARGE';
/** CONNECTION_FAILED: no answer at all (status 0). HTTP_ERROR: an answer in neither shape. */
export type HeraldErrorCode = ErrorCode | FlatErrorCode | 'CONNECTION_FAILED' | 'HTTP_ERROR';

export class HeraldError extends Error {
  override readonly name = 'HeraldError';
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  /** A stable code to switch on. */
  readonly code: HeraldErrorCode;
  /** The offending input (a body path or a header name), when Herald names one. */
  readonly field: string | undefined;
  /** The answer's X-Request-Id: quote it to Herald's operators. */
  readonly requestId: string | undefined;
  /** Every message of a flat 400 (one per problem). */
  readonly messages: string[];
  /** Retry-After of the answer, in seconds, when it had one. */
  readonly retryAfter: number | undefined;
  /** The parsed body (or its text). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: HeraldErrorCode;
    message: string;
    field?: string;
    requestId?: string;
    messages?: string[];
    retryAfter?: number;
    body?: unknown;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.field = init.field;
    this.requestId = init.requestId;
    this.messages = init.messages ?? [init.message];
    this.retryAfter = init.retryAfter;
    this.body = init.body;
  }

  /** Reads a non-2xx answer (consumes its body). */
  static async fromResponse(res: Response): Promise<HeraldError> {
    const text = await res.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    const common = { status: res.status, requestId: res.headers.get('x-request-id') ?? undefined, retryAfter: retryAfterSeconds(res.headers), body };
    const envelope = (body as { error?: { code?: unknown; message?: unknown; field?: unknown } } | null)?.error;
    if (envelope && typeof envelope === 'object' && typeof envelope.code === 'string') {
      return new HeraldError({
        ...common,
        code: envelope.code as HeraldErrorCode,
        message: String(envelope.message ?? envelope.code),
        field: typeof envelope.field === 'string' ? envelope.field : undefined,
      });
    }
    const flat = body as { statusCode?: unknown; message?: unknown; error?: unknown } | null;
    if (flat && typeof flat === 'object' && typeof flat.error === 'string') {
      const messages = Array.isArray(flat.message) ? flat.message.map(String) : [String(flat.message ?? flat.error)];
      const code = (res.status === 429 ? 'RATE_LIMITED' : flat.error.toUpperCase().replace(/[^A-Z]+/g, '_')) as HeraldErrorCode;
      return new HeraldError({ ...common, code, message: messages.join('; '), messages });
    }
    return new HeraldError({ ...common, code: 'HTTP_ERROR', message: `Herald answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}` });
  }
}

/** Retry-After as seconds (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
