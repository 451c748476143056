// The one error type services throw. Transports (REST, tRPC, tool endpoint) turn it into
// their wire shape through server/errors/http.ts — never by hand.
import { ERROR_CATALOGUE, type ErrorCode } from './catalogue';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly field?: string;
  /** Extra response headers (Retry-After on 429, WWW-Authenticate on 401). */
  readonly headers?: Record<string, string>;
  /** For flat validation errors: one readable message per problem. */
  readonly messages?: string[];

  constructor(code: ErrorCode, message: string, opts: { field?: string; status?: number; headers?: Record<string, string>; messages?: string[] } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    const entry = ERROR_CATALOGUE[code] as { status: number; altStatuses?: readonly number[] };
    const status = opts.status ?? entry.status;
    if (status !== entry.status && !entry.altStatuses?.includes(status)) {
      throw new Error(`${code} cannot carry status ${status}: declare it in the catalogue`);
    }
    this.status = status;
    this.field = opts.field;
    this.headers = opts.headers;
    this.messages = opts.messages;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
