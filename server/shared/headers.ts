// Vendor header names. The contract writes them with the stand-in prefix `X-Service-` and the
// webhook User-Agent `service-webhooks/1`; the vendor name lives here and nowhere else so a
// rename is one line.
export const SERVICE_VENDOR = 'Service';
export const SERVICE_HEADER_PREFIX = `X-${SERVICE_VENDOR}-`;

export const HEADERS = {
  /** Selects a managed workspace for an agency key. */
  workspace: `${SERVICE_HEADER_PREFIX}Workspace`,
  /** Webhook deliveries. */
  signature: `${SERVICE_HEADER_PREFIX}Signature`,
  event: `${SERVICE_HEADER_PREFIX}Event`,
  delivery: `${SERVICE_HEADER_PREFIX}Delivery`,
  idempotencyKey: 'Idempotency-Key',
} as const;

/** User-Agent of webhook deliveries. */
export const WEBHOOK_USER_AGENT = `${SERVICE_VENDOR.toLowerCase()}-webhooks/1`;

/**
 * True for the media type `application/json`, with or without parameters
 * (`; charset=utf-8`). Type and subtype compare without case, as HTTP defines them;
 * look-alikes such as `application/jsonx` or `application/json-seq` are not JSON. Every
 * Herald route that reads a JSON body asks this one function (REST facade, client-link
 * routes, assistant sign-in), so a prefix or substring test cannot creep back in one of them.
 */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  return header.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}
