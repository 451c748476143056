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
  constructor(
    readonly code: OutboundFailureCode,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
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
