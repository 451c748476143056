// One mapping from anything thrown to the contract's wire shapes. Used by the REST facade,
// the tRPC endpoint's error formatter and the tool endpoint, so a code means the same
// thing everywhere.
import { TRPCError } from '@trpc/server';
import type { $ZodIssue } from 'zod/v4/core';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { AppError } from './app-error';
import { ERROR_CATALOGUE, REASON_PHRASES, type ErrorCode } from './catalogue';

export interface ErrorResponse {
  status: number;
  code: ErrorCode;
  headers: Record<string, string>;
  body: { error: { code: string; message: string; field?: string } } | { statusCode: number; message: string | string[]; error: string };
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** One readable sentence per schema problem, e.g. `content is required`, `foo is not allowed`. */
export function describeIssues(issues: readonly $ZodIssue[]): string[] {
  const out: string[] = [];
  for (const issue of issues) {
    const where = pathOf(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push(`${where ? `${where}.` : ''}${key} is not allowed`);
      continue;
    }
    if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
      out.push(`${where || 'body'} is required`);
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length) {
      // Report the first branch's problems rather than the generic "invalid input".
      out.push(...describeIssues(issue.errors[0]!.map((i) => ({ ...i, path: [...issue.path, ...i.path] }))));
      continue;
    }
    out.push(where ? `${where}: ${issue.message}` : issue.message);
  }
  return out;
}

/**
 * The flat body. At 400 its `message` is always a list, one message per problem: the
 * contract's schema-validation body, which the document declares for every flat 400
 * (ValidationError), whatever raised it.
 */
function flat(code: ErrorCode, status: number, message: string | string[], headers: Record<string, string> = {}): ErrorResponse {
  const text = status === 400 && !Array.isArray(message) ? [message] : message;
  return { status, code, headers, body: { statusCode: status, message: text, error: REASON_PHRASES[status] ?? 'Error' } };
}

function envelope(code: ErrorCode, status: number, message: string, field?: string, headers: Record<string, string> = {}): ErrorResponse {
  return { status, code, headers, body: { error: field ? { code, message, field } : { code, message } } };
}

export function appErrorResponse(err: AppError): ErrorResponse {
  if (ERROR_CATALOGUE[err.code].shape === 'flat') {
    return flat(err.code, err.status, err.messages ?? err.message, err.headers);
  }
  return envelope(err.code, err.status, err.message, err.field, err.headers);
}

/** Finds the AppError or ZodError a TRPCError wraps, however deep. */
function rootCause(err: unknown): unknown {
  let current = err;
  for (let i = 0; i < 5 && current instanceof TRPCError && current.cause; i++) current = current.cause;
  return current;
}

/** Seconds a client waits before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

export function toErrorResponse(err: unknown): ErrorResponse {
  const cause = rootCause(err);
  if (cause instanceof AppError) return appErrorResponse(cause);
  if (cause instanceof ZodError) return flat('BAD_REQUEST', 400, describeIssues(cause.issues));
  if (isDatabaseUnavailable(cause)) {
    return envelope('SERVICE_UNAVAILABLE', 503, 'Herald cannot reach its database right now; retry shortly with the same Idempotency-Key', undefined, {
      'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
  if (err instanceof TRPCError) {
    switch (err.code) {
      case 'PARSE_ERROR':
        return flat('BAD_REQUEST', 400, ['body is not valid JSON']);
      case 'BAD_REQUEST':
        return flat('BAD_REQUEST', 400, [err.message]);
      case 'UNSUPPORTED_MEDIA_TYPE':
        return flat('UNSUPPORTED_MEDIA_TYPE', 415, 'send the body as JSON with Content-Type: application/json');
      case 'PAYLOAD_TOO_LARGE':
        return flat('PAYLOAD_TOO_LARGE', 413, 'request body too large');
      case 'NOT_FOUND':
        return envelope('ROUTE_NOT_FOUND', 404, 'No route at this method and path');
      case 'METHOD_NOT_SUPPORTED':
        return envelope('ROUTE_NOT_FOUND', 404, 'No route at this method and path');
      case 'UNAUTHORIZED':
        return flat('UNAUTHORIZED', 401, err.message);
      case 'FORBIDDEN':
        return envelope('FORBIDDEN', 403, err.message);
      default:
        break;
    }
  }
  return envelope('INTERNAL_ERROR', 500, 'Something went wrong on our side');
}

export function errorToResponse(err: unknown): Response {
  const r = toErrorResponse(err);
  return Response.json(r.body, { status: r.status, headers: r.headers });
}
