// Errors of the outbound HTTP guard. Callers (webhooks, media by URL, crawl, platform
// adapters) map `code` to their own error catalogue; `reason` is a sentence a user can read.

/** Why a URL or a resolved address was refused by policy (nothing was sent). */
export type OutboundRefusalCode =
  | 'invalid_url'
  | 'not_https'
  | 'credentials_in_url'
  | 'localhost'
  | 'private_address'
  /** Only from the resolving check: the host name has no address. */
  | 'unresolvable';

export class OutboundRefusedError extends Error {
  readonly name = 'OutboundRefusedError';
  constructor(
    readonly code: OutboundRefusalCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Why an allowed request did not complete (the remote side or the network, not policy). */
export type OutboundFailureCode = 'timeout' | 'too_large' | 'network';

export class OutboundFailedError extends Error {
  readonly name = 'OutboundFailedError';
  /**
   * Whether the remote side may have received the request and acted on it: false only when the
   * connection was never made (refused, no such host, a certificate refused), true for a
   * deadline or a connection lost once the request could have left. A caller that created
   * something with the request asks the remote side before sending it again.
   */
  readonly requestMayHaveArrived: boolean;
  constructor(
    readonly code: OutboundFailureCode,
    readonly reason: string,
    options?: { cause?: unknown; requestMayHaveArrived?: boolean },
  ) {
    super(reason, options);
    this.requestMayHaveArrived = options?.requestMayHaveArrived ?? code !== 'too_large';
  }
}

/** Error codes (Node's and undici's) of a connection that was never made: nothing was sent. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
]);

/** Whether an error from the connection says it was never made (so the request never left). */
export function neverConnected(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_CONNECTED.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Finds a refusal raised inside the connection (DNS lookup) under the client's wrapping errors. */
export function findRefusal(error: unknown): OutboundRefusedError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof OutboundRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
