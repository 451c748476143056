// Which destinations Herald may call. Pure functions: no DNS, no sockets. The same rules run
// at registration time (checkOutboundUrl) and inside the socket's DNS lookup (isAllowedAddress),
// so a URL accepted when saved is judged by the same code when it is finally connected to.
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { env } from '@/server/config/env';
import type { OutboundRefusalCode } from './errors';

/** Hosts exempt from the private-address rule; never from https or the credentials rule. */
export interface AllowList {
  /** Lower-case host names without a trailing dot. */
  names: Set<string>;
  /** Canonical IP strings (IPv4-mapped IPv6 folded to IPv4). */
  addresses: Set<string>;
}

export type OutboundUrlCheck = { ok: true; url: URL } | { ok: false; code: OutboundRefusalCode; reason: string };

// Globally routable IPv6 space. ipaddr.js labels everything it has no special range for as
// "unicast", which includes unallocated space such as IPv4-compatible `::7f00:1`; nothing
// outside 2000::/3 is a public internet destination.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Canonical form of an IP literal, folding `::ffff:a.b.c.d` to `a.b.c.d` so the two spellings of one host compare equal. */
function canonicalIp(ip: string): string {
  return ipaddr.process(ip).toString();
}

/**
 * True when `ip` is an ordinary public unicast address. Private (RFC 1918), loopback, link-local,
 * unique-local, unspecified, multicast, broadcast, carrier-grade NAT, documentation, benchmarking,
 * NAT64/6to4/Teredo and other special ranges are not public. IPv4-mapped IPv6 is judged as the
 * IPv4 address it carries.
 */
export function isPublicAddress(ip: string): boolean {
  if (net.isIP(ip) === 0) return false;
  const parsed = ipaddr.process(ip);
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return false;
  return true;
}

/** Turns `OUTBOUND_ALLOW_HOSTS` (or an explicit list) into the two lookup sets. */
export function parseAllowList(entries: readonly string[] = env.outboundAllowHosts()): AllowList {
  const names = new Set<string>();
  const addresses = new Set<string>();
  for (const raw of entries) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '');
    if (!entry) continue;
    if (net.isIP(entry) !== 0) addresses.add(canonicalIp(entry));
    else names.add(entry);
  }
  return { names, addresses };
}

/** The URL's host as compared by the rules: lower case, no IPv6 brackets, no trailing dot. */
export function normalizeHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

export function isAllowedHostName(host: string, allow: AllowList): boolean {
  const normalized = normalizeHost(host);
  if (allow.names.has(normalized)) return true;
  return net.isIP(normalized) !== 0 && allow.addresses.has(canonicalIp(normalized));
}

/** The connect-time rule for one resolved address of `host`. */
export function isAllowedAddress(host: string, address: string, allow: AllowList): boolean {
  if (isAllowedHostName(host, allow)) return true;
  if (net.isIP(address) !== 0 && allow.addresses.has(canonicalIp(address))) return true;
  return isPublicAddress(address);
}

function refuse(code: OutboundRefusalCode, reason: string): OutboundUrlCheck {
  return { ok: false, code, reason };
}

/**
 * Registration-time check of a URL, before any DNS: https only, no credentials, no localhost
 * names, no non-public IP literals. A host name that passes here is checked again against
 * every address it resolves to when the connection is made.
 */
export function checkOutboundUrl(input: string | URL, allow: AllowList = parseAllowList()): OutboundUrlCheck {
  let url: URL;
  try {
    // The WHATWG parser canonicalises numeric hosts (`https://2130706433/`, `https://0x7f.1/`)
    // to dotted IPv4, so the checks below see the address that would really be dialled.
    url = new URL(String(input));
  } catch {
    return refuse('invalid_url', 'The URL is not valid.');
  }
  if (url.protocol !== 'https:') return refuse('not_https', 'Only https URLs are allowed.');
  if (url.username || url.password) {
    return refuse('credentials_in_url', 'URLs must not contain a user name or password.');
  }
  const host = normalizeHost(url.hostname);
  if (!host) return refuse('invalid_url', 'The URL has no host.');
  if (isAllowedHostName(host, allow)) return { ok: true, url };
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return refuse('localhost', 'Local host names are not allowed.');
  }
  if (net.isIP(host) !== 0 && !isPublicAddress(host)) {
    return refuse('private_address', `The address ${host} is private or reserved, not a public internet address.`);
  }
  return { ok: true, url };
}
