// Which catalogue codes a route can answer: its own (meta.errors) plus those every route,
// every key route, every write and every route with a body can. The OpenAPI document lists
// them per route from this one function.
import type { ErrorCode } from '@/server/errors/catalogue';
import type { HeraldMeta } from '@/server/trpc/meta';

/** Codes every route can answer, with or without a key. */
export const EVERY_ROUTE_ERRORS: ErrorCode[] = ['URI_TOO_LONG', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
/**
 * Codes Herald's HTTP server answers before a request reaches any route (client-error.ts):
 * every operation can get them. Last, so a route's own codes lead its error responses.
 */
export const TRANSPORT_ERRORS: ErrorCode[] = ['MALFORMED_REQUEST', 'REQUEST_TIMEOUT', 'REQUEST_HEADER_FIELDS_TOO_LARGE'];
/** Codes any key-authenticated route can answer. */
export const KEY_ROUTE_ERRORS: ErrorCode[] = ['UNAUTHORIZED', 'SCOPE_MISSING', 'RATE_LIMITED', 'BAD_REQUEST'];
const SELECTABLE_ROUTE_ERRORS: ErrorCode[] = ['WORKSPACE_NOT_MANAGED'];
const HEADER_FORBIDDEN_ERRORS: ErrorCode[] = ['WORKSPACE_HEADER_NOT_ALLOWED'];
const WRITE_ERRORS: ErrorCode[] = ['IDEMPOTENCY_KEY_CONFLICT', 'IDEMPOTENCY_IN_FLIGHT', 'VALIDATION_FAILED'];
/** Only a route that reads a body can refuse one (rest-routes.ts: routes without body fields read none). */
const BODY_ERRORS: ErrorCode[] = ['UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'];

/** Every code the route can answer, in a stable order without duplicates. */
export function routeErrorCodes(meta: HeraldMeta, isWrite: boolean, takesBody: boolean): ErrorCode[] {
  const codes: ErrorCode[] = [...(meta.errors ?? []), ...EVERY_ROUTE_ERRORS];
  // Parameter errors of these routes answer VALIDATION_FAILED naming the field (server/trpc/meta.ts).
  if (meta.inputErrors === 'field') codes.push('VALIDATION_FAILED');
  if (meta.openapi?.protect !== false) {
    codes.push(...KEY_ROUTE_ERRORS, ...(meta.workspaceHeader === 'forbidden' ? HEADER_FORBIDDEN_ERRORS : SELECTABLE_ROUTE_ERRORS));
    if (isWrite) codes.push(...WRITE_ERRORS);
  }
  if (takesBody) codes.push(...BODY_ERRORS);
  codes.push(...TRANSPORT_ERRORS);
  return [...new Set(codes)];
}
