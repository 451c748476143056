// Set-up shared by the webhook tests: a local HTTPS receiver, a guarded outbound client that
// trusts its self-signed certificate (OUTBOUND_ALLOW_HOSTS=127.0.0.1 lets it past the private
// address rule, as in development), simulated DNS for named hosts, and a clock the test moves.
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, vi } from 'vitest';
import { createOutboundClient, type OutboundClient, type Resolver } from '@/server/outbound';
import { useWebhookTransport } from '../transport';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

/** Answers from a table; anything else does not resolve. Entries may change during a test. */
export function fakeDns(answers: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const found = answers[hostname];
    if (!found?.length) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** Real time plus an offset the test moves forward: retries become due without waiting. */
export class TestClock {
  offsetMs = 0;
  now = (): Date => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface WebhookHarness {
  receiver: WebhookReceiver;
  client: OutboundClient;
  clock: TestClock;
  /** Simulated DNS answers used by `client` (mutable). */
  dns: Record<string, string[]>;
  /** Installs the transport again (after a test replaced it). */
  install(options?: { timeoutMs?: number; client?: OutboundClient }): void;
}

/** Hosts exempt from the private-address rule in these tests: the local receiver only. */
export const TEST_ALLOW_HOSTS = '127.0.0.1,hooks.test';

export function useWebhookHarness(): WebhookHarness {
  const dns: Record<string, string[]> = { 'hooks.test': ['127.0.0.1'] };
  const harness = { clock: new TestClock(), dns } as unknown as WebhookHarness;
  beforeAll(async () => {
    vi.stubEnv('OUTBOUND_ALLOW_HOSTS', TEST_ALLOW_HOSTS);
    harness.receiver = await startWebhookReceiver();
    harness.client = createOutboundClient({ ca: harness.receiver.cert, resolve: fakeDns(harness.dns) });
    harness.install = (options = {}) => useWebhookTransport({ client: options.client ?? harness.client, now: harness.clock.now, timeoutMs: options.timeoutMs });
    harness.install();
  });
  afterAll(async () => {
    useWebhookTransport(undefined);
    await harness.client.close();
    await harness.receiver.close();
    vi.unstubAllEnvs();
  });
  return harness;
}
