// One request of the crawler, through the outbound guard, and its outcome. The outcome code
// and the detail text are the crawler's own words and are stored and answered verbatim:
//   ok                 2xx with an HTML body
//   empty_body         2xx with no content (or only whitespace)
//   not_html           2xx whose Content-Type is not HTML
//   http_error         any 4xx/5xx (detail: the status line)
//   redirect           3xx; not followed (detail: the Location)
//   blocked_by_robots  robots.txt disallows the URL for HeraldBot; nothing was requested
//   timeout            no complete answer within CRAWL_TIMEOUT_MS
//   dns_failure        the host name did not resolve
//   tls_error          the TLS handshake or certificate check failed
//   connection_failed  refused or reset before an answer
//   too_large          the body was over the size limit
//   refused            the outbound guard refused the destination (private address, not https)
//   network            any other transport failure
import { STATUS_CODES } from 'node:http';
import { OutboundFailedError, OutboundRefusedError, type OutboundClient, type OutboundResponse } from '@/server/outbound';

export type CrawlFetch = OutboundClient['fetch'];

import type { CrawlOutcome } from './outcomes';
export { CRAWL_OUTCOMES, type CrawlOutcome } from './outcomes';

/** Largest page the crawler reads. */
export const CRAWL_MAX_BYTES = 5 * 1024 * 1024;

export interface VisitResult {
  outcome: CrawlOutcome;
  detail: string | null;
  statusCode: number | null;
  contentType: string | null;
  bytes: number | null;
  /** The HTML, only when outcome is ok. */
  html: string | null;
}

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/** The crawler's outcome for a request that threw. */
export function classifyFailure(error: unknown): { outcome: CrawlOutcome; detail: string } {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof OutboundRefusedError) return { outcome: error.code === 'unresolvable' ? 'dns_failure' : 'refused', detail };
  if (error instanceof OutboundFailedError) {
    if (error.code === 'timeout') return { outcome: 'timeout', detail };
    if (error.code === 'too_large') return { outcome: 'too_large', detail };
    const codes = causeCodes(error);
    const first = codes.find((c) => c !== 'network') ?? '';
    const withCode = first ? `${detail} (${first})` : detail;
    if (codes.some((c) => c === 'ENOTFOUND' || c === 'EAI_AGAIN' || c === 'ENODATA')) return { outcome: 'dns_failure', detail: withCode };
    if (codes.some((c) => /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_SSL|HOSTNAME_MISMATCH|ALTNAME/i.test(c)))
      return { outcome: 'tls_error', detail: withCode };
    if (codes.some((c) => c === 'ECONNREFUSED' || c === 'ECONNRESET' || c === 'UND_ERR_SOCKET' || c === 'EPIPE'))
      return { outcome: 'connection_failed', detail: withCode };
    return { outcome: 'network', detail: withCode };
  }
  return { outcome: 'network', detail };
}

export function classifyResponse(res: OutboundResponse): VisitResult {
  const contentType = res.headers.get('content-type');
  const base = { statusCode: res.status, contentType, bytes: res.body.length };
  if (res.status >= 300 && res.status < 400) {
    return {
      ...base,
      outcome: 'redirect',
      detail: `HTTP ${res.status} ${STATUS_CODES[res.status] ?? ''} → ${res.headers.get('location') ?? '(no Location)'}`.replace('  ', ' '),
      html: null,
    };
  }
  if (res.status < 200 || res.status >= 400) {
    return { ...base, outcome: 'http_error', detail: `HTTP ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trim(), html: null };
  }
  const text = res.body.toString('utf8');
  if (text.trim() === '') return { ...base, outcome: 'empty_body', detail: `HTTP ${res.status} with an empty body`, html: null };
  if (contentType && !/html/i.test(contentType)) return { ...base, outcome: 'not_html', detail: `Content-Type ${contentType}`, html: null };
  return { ...base, outcome: 'ok', detail: null, html: text };
}

export async function visitUrl(fetch: CrawlFetch, url: string, opts: { userAgent: string; timeoutMs: number }): Promise<VisitResult> {
  try {
    const res = await fetch(url, {
      headers: { 'user-agent': opts.userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
      timeoutMs: opts.timeoutMs,
      maxBytes: CRAWL_MAX_BYTES,
    });
    return classifyResponse(res);
  } catch (error) {
    const { outcome, detail } = classifyFailure(error);
    return { outcome, detail, statusCode: null, contentType: null, bytes: null, html: null };
  }
}
