// What webhook delivery talks to the outside world with: the guarded outbound client (URL
// rules, DNS checked and pinned at connect, no redirects) and a clock. Production uses the
// shared guarded client and the wall clock; tests and the benchmark swap in a client that
// trusts a local self-signed receiver (or simulates DNS) and a clock they move by hand, so
// the +10 s and +1 min retry steps are checked without waiting for them.
import { checkOutboundDestination, guardedStream, type OutboundClient } from '@/server/outbound';

export interface WebhookTransport {
  /** Registration-time check (URL rules plus every address the host resolves to now). */
  check: OutboundClient['check'];
  /** The send: the body is read by the caller, capped. */
  stream: OutboundClient['stream'];
  now(): Date;
  /** How long a receiver has to answer (the contract's 10 s). */
  timeoutMs: number;
}

/** A 2xx within this many milliseconds is a success; anything slower is a failed attempt. */
export const RECEIVER_TIMEOUT_MS = 10_000;

const production: WebhookTransport = {
  check: checkOutboundDestination,
  stream: guardedStream,
  now: () => new Date(),
  timeoutMs: RECEIVER_TIMEOUT_MS,
};

let override: Partial<WebhookTransport> | undefined;

export function webhookTransport(): WebhookTransport {
  return override ? { ...production, ...override } : production;
}

/**
 * Replaces parts of the transport (a client's check/stream, the clock, the receiver timeout);
 * undefined restores production.
 */
export function useWebhookTransport(transport: { client?: Pick<OutboundClient, 'check' | 'stream'>; now?: () => Date; timeoutMs?: number } | undefined): void {
  if (!transport) {
    override = undefined;
    return;
  }
  const { client, now, timeoutMs } = transport;
  override = {
    ...(client ? { check: (url) => client.check(url), stream: (url, init) => client.stream(url, init) } : {}),
    ...(now ? { now } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}
