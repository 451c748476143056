// The client's address: the last X-Forwarded-For hop, i.e. the one our own front (the proxy
// in front of Herald, or Next.js's server) recorded; earlier hops are whatever the client
// claims. Without the header, one shared bucket.
export function clientAddress(headers: Headers): string {
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  return hops.at(-1) ?? headers.get('x-real-ip')?.trim() ?? 'unknown';
}
