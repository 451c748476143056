// The shape rules of an outbound URL, with no DNS, no sockets and no configuration: plain
// functions of their arguments, so the staff app runs exactly these as a member types a
// webhook URL, and the server runs them again at registration and inside the socket's lookup
// (address-policy.ts). Only ipaddr.js is imported, which runs in browsers too.
import ipaddr from 'ipaddr.js';
import type { OutboundRefusalCode } from './errors';

/** Hosts exempt from the private-address rule; never from https or the credentials rule. */
export interface AllowList {
  /** Lower-case host names without a trailing dot. */
  names: Set<string>;
  /** Canonical IP strings (IPv4-mapped IPv6 folded to IPv4). */
  addresses: Set<string>;
}

export type OutboundUrlCheck = { ok: true; url: URL } | { ok: false; code: OutboundRefusalCode; reason: string };

export const EMPTY_ALLOW_LIST: AllowList = { names: new Set(), addresses: new Set() };

// Globally routable IPv6 space. ipaddr.js labels everything it has no special range for as
// "unicast", which includes unallocated space such as IPv4-compatible `::7f00:1`; nothing
// outside 2000::/3 is a public internet destination.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * True for an IP literal as the WHATWG URL parser and DNS answers spell them: dotted-quad
 * IPv4 (no hex, octal or shortened forms: the URL parser has already expanded those) or IPv6.
 */
export function isIpLiteral(value: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value);
}

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
  if (!isIpLiteral(ip)) return false;
  const parsed = ipaddr.process(ip);
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return false;
  return true;
}

/** Turns a list of host names and addresses (OUTBOUND_ALLOW_HOSTS) into the two lookup sets. */
export function allowListOf(entries: readonly string[]): AllowList {
  const names = new Set<string>();
  const addresses = new Set<string>();
  for (const raw of entries) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '');
    if (!entry) continue;
    if (isIpLiteral(entry)) addresses.add(canonicalIp(entry));
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
  return isIpLiteral(normalized) && allow.addresses.has(canonicalIp(normalized));
}

/** The connect-time rule for one resolved address of `host`. */
export function isAllowedAddress(host: string, address: string, allow: AllowList): boolean {
  if (isAllowedHostName(host, allow)) return true;
  if (isIpLiteral(address) && allow.addresses.has(canonicalIp(address))) return true;
  return isPublicAddress(address);
}

function refuse(code: OutboundRefusalCode, reason: string): OutboundUrlCheck {
  return { ok: false, code, reason };
}

/**
 * The URL rule before any DNS: https only, no credentials, no localhost names, no non-public
 * IP literals. A host name that passes here is checked again against every address it
 * resolves to when the connection is made (server side only).
 */
export function checkUrlShape(input: string | URL, allow: AllowList): OutboundUrlCheck {
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
  if (isIpLiteral(host) && !isPublicAddress(host)) {
    return refuse('private_address', `The address ${host} is private or reserved, not a public internet address.`);
  }
  return { ok: true, url };
}
