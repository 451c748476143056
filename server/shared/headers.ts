// Vendor header names. The contract writes them with the stand-in prefix `X-Service-`;
// keep the prefix here and nowhere else so a rename is one line.
export const SERVICE_HEADER_PREFIX = 'X-Service-';

export const HEADERS = {
  /** Selects a managed workspace for an agency key. */
  workspace: `${SERVICE_HEADER_PREFIX}Workspace`,
  /** Webhook deliveries. */
  signature: `${SERVICE_HEADER_PREFIX}Signature`,
  event: `${SERVICE_HEADER_PREFIX}Event`,
  delivery: `${SERVICE_HEADER_PREFIX}Delivery`,
  idempotencyKey: 'Idempotency-Key',
} as const;
