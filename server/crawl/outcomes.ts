// The crawler's outcome codes (their meaning is at the top of visit.ts). In a module of their
// own, with no imports, so the wire schemas and the staff app can name them without loading
// the crawler's HTTP client.
export const CRAWL_OUTCOMES = [
  'ok',
  'empty_body',
  'not_html',
  'http_error',
  'redirect',
  'blocked_by_robots',
  'timeout',
  'dns_failure',
  'tls_error',
  'connection_failed',
  'too_large',
  'refused',
  'network',
] as const;
export type CrawlOutcome = (typeof CRAWL_OUTCOMES)[number];
