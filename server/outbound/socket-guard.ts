// The outbound guard for sockets Herald opens itself (a Nostr relay's WebSocket): the same URL
// rules as checkOutboundUrl, read for wss:// addresses, and the same checked DNS lookup the
// HTTP client hands its sockets, so every address the host resolves to is judged before the
// socket connects to it (no second resolution, no window for DNS rebinding).
import type { LookupFunction } from 'node:net';
import { checkOutboundUrl, parseAllowList, type OutboundUrlCheck } from './address-policy';
import { createCheckedLookup, systemResolver, type Resolver } from './checked-lookup';

export interface SocketGuardOptions {
  /** Replaces OUTBOUND_ALLOW_HOSTS (read on every check otherwise). */
  allowHosts?: readonly string[];
  /** Replaces the system DNS resolver (tests simulate any answer with it). */
  resolve?: Resolver;
}

export interface SocketGuard {
  /** A wss:// address checked as its https:// twin would be (same host and port); the wss:// URL when allowed. */
  check(address: string): OutboundUrlCheck;
  /** The lookup to hand the socket: it refuses any resolved address the rules refuse. */
  lookup: LookupFunction;
}

export function createSocketGuard(options: SocketGuardOptions = {}): SocketGuard {
  const allow = () => parseAllowList(options.allowHosts);
  return {
    check(address) {
      let url: URL;
      try {
        url = new URL(address.trim());
      } catch {
        return { ok: false, code: 'invalid_url', reason: 'The address is not valid.' };
      }
      if (url.protocol !== 'wss:') return { ok: false, code: 'not_https', reason: 'Only wss:// addresses are allowed.' };
      const twin = new URL(url.href.replace(/^wss:/, 'https:'));
      const checked = checkOutboundUrl(twin, allow());
      return checked.ok ? { ok: true, url } : checked;
    },
    lookup: createCheckedLookup(options.resolve ?? systemResolver, allow),
  };
}
