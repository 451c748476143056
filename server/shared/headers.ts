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
