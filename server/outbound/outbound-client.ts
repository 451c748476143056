// The guarded HTTP client: every request Herald makes to a URL that came from a user or a
// third party (webhooks, media by URL, the crawl, platform adapters) goes through here.
//
// Node's global fetch ignores http.Agent, so requests go through an undici Agent whose
// `connect.lookup` is the checked lookup: the address checked is the address connected to.
// TLS is always verified; self-signed test receivers are trusted through NODE_EXTRA_CA_CERTS
// (or the `ca` option of createOutboundClient in tests).
//
// Redirects are NOT followed: a 3xx comes back as-is (status and Location header) for the
// caller to treat as a failure. Following one would mean trusting a destination nobody
// checked at registration time, and webhook receivers are expected to answer directly.
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { checkOutboundUrl, isAllowedAddress, isAllowedHostName, parseAllowList, type AllowList, type OutboundUrlCheck } from './address-policy';
import { createCheckedLookup, systemResolver, type Resolver } from './checked-lookup';
import { findRefusal, neverConnected, OutboundFailedError, OutboundRefusedError } from './errors';

export interface OutboundRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Aborts the request early (on top of the timeout). */
  signal?: AbortSignal;
  /** Deadline for the whole exchange, connection to last body byte. */
  timeoutMs?: number;
  /** Largest body accepted; a longer one fails with `too_large`. */
  maxBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  /** The whole body, at most `maxBytes` long. */
  body: Buffer;
}

export interface OutboundStreamResponse {
  status: number;
  headers: Headers;
  /** The body as it arrives; it errors with OutboundFailedError past `maxBytes` or the deadline. */
  body: Readable;
}

export interface OutboundClientOptions {
  /** Replaces the system DNS resolver (tests simulate any answer with it). */
  resolve?: Resolver;
  /** Extra trusted CA certificates (PEM), for tests; production uses NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer;
  /** Replaces OUTBOUND_ALLOW_HOSTS (read on every request otherwise). */
  allowHosts?: readonly string[];
}

export interface OutboundClient {
  /** checkOutboundUrl plus a DNS resolution of the host, every answer checked. Never throws. */
  check(url: string | URL): Promise<OutboundUrlCheck>;
  fetch(url: string | URL, init?: OutboundRequestInit): Promise<OutboundResponse>;
  stream(url: string | URL, init?: OutboundRequestInit): Promise<OutboundStreamResponse>;
  close(): Promise<void>;
}

/** Webhook receivers get 10 s (the delivery contract); other callers pass their own. */
export const DEFAULT_FETCH_LIMITS = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024 } as const;
/** Media downloads: larger and slower by nature. */
export const DEFAULT_STREAM_LIMITS = { timeoutMs: 120_000, maxBytes: 512 * 1024 * 1024 } as const;

function toHeaders(raw: Dispatcher.ResponseData['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

export function createOutboundClient(options: OutboundClientOptions = {}): OutboundClient {
  const getAllowList = (): AllowList => parseAllowList(options.allowHosts);
  const resolve = options.resolve ?? systemResolver;
  const lookup = createCheckedLookup(resolve, getAllowList);
  const agent = new Agent({
    connect: { lookup, ...(options.ca ? { ca: options.ca } : {}) },
    // Keep-alive connections are reused only for the origin they were checked for.
    keepAliveTimeout: 4_000,
  });

  /** Maps anything thrown while talking to the remote side to the two public error types. */
  function translate(error: unknown, url: URL, deadline: AbortSignal, timeoutMs: number): Error {
    if (error instanceof OutboundFailedError) return error;
    const refusal = findRefusal(error);
    if (refusal) return refusal;
    const requestMayHaveArrived = !neverConnected(error);
    if (deadline.aborted) {
      return new OutboundFailedError('timeout', `${url.host} did not answer within ${timeoutMs} ms.`, { cause: error, requestMayHaveArrived });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new OutboundFailedError('network', `Could not reach ${url.host}: ${message}`, { cause: error, requestMayHaveArrived });
  }

  async function open(input: string | URL, init: OutboundRequestInit, limits: { timeoutMs: number; maxBytes: number }) {
    const checked = checkOutboundUrl(input, getAllowList());
    if (!checked.ok) throw new OutboundRefusedError(checked.code, checked.reason);
    const url = checked.url;
    const timeoutMs = init.timeoutMs ?? limits.timeoutMs;
    const maxBytes = init.maxBytes ?? limits.maxBytes;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([deadline, init.signal]) : deadline;

    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        dispatcher: agent,
        method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: init.headers,
        body: init.body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      throw translate(error, url, deadline, timeoutMs);
    }

    // A HEAD answer declares the size of a body it does not send (how a size is asked for).
    const declared = init.method === 'HEAD' ? NaN : Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      // Destroying the unread body makes it emit an abort error of its own: expected here.
      response.body.on('error', () => {});
      response.body.destroy();
      throw new OutboundFailedError('too_large', `${url.host} sent ${declared} bytes, more than the ${maxBytes} allowed.`);
    }

    // Counts bytes as they arrive so a body without (or lying about) Content-Length is cut off too.
    async function* limited(): AsyncGenerator<Buffer> {
      let received = 0;
      try {
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          received += chunk.length;
          if (received > maxBytes) {
            throw new OutboundFailedError('too_large', `${url.host} sent more than the ${maxBytes} bytes allowed.`);
          }
          yield chunk;
        }
      } catch (error) {
        throw translate(error, url, deadline, timeoutMs);
      } finally {
        if (!response.body.destroyed) response.body.destroy();
      }
    }

    return { status: response.statusCode, headers: toHeaders(response.headers), chunks: limited() };
  }

  return {
    async check(input) {
      const allow = getAllowList();
      const checked = checkOutboundUrl(input, allow);
      if (!checked.ok) return checked;
      const host = checked.url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(host) !== 0 || isAllowedHostName(host, allow)) return checked;
      let addresses: { address: string }[];
      try {
        addresses = await resolve(host, 0);
      } catch {
        addresses = [];
      }
      if (addresses.length === 0) {
        return { ok: false, code: 'unresolvable', reason: `The host ${host} could not be resolved.` };
      }
      const refused = addresses.find(({ address }) => !isAllowedAddress(host, address, allow));
      if (refused) {
        return {
          ok: false,
          code: 'private_address',
          reason: `${host} resolves to ${refused.address}, which is private or reserved, not a public internet address.`,
        };
      }
      return checked;
    },
    async fetch(input, init = {}) {
      const { status, headers, chunks } = await open(input, init, DEFAULT_FETCH_LIMITS);
      const parts: Buffer[] = [];
      for await (const chunk of chunks) parts.push(chunk);
      return { status, headers, body: Buffer.concat(parts) };
    },
    async stream(input, init = {}) {
      const { status, headers, chunks } = await open(input, init, DEFAULT_STREAM_LIMITS);
      return { status, headers, body: Readable.from(chunks, { objectMode: false }) };
    },
    close: () => agent.close(),
  };
}

let shared: OutboundClient | undefined;

function sharedClient(): OutboundClient {
  shared ??= createOutboundClient();
  return shared;
}

/**
 * One guarded request with the body read into memory (capped). Throws OutboundRefusedError
 * when policy forbids the destination, OutboundFailedError on timeout, oversize or network error.
 * Any HTTP status, 3xx included, is returned, not thrown.
 */
export function guardedFetch(url: string | URL, init?: OutboundRequestInit): Promise<OutboundResponse> {
  return sharedClient().fetch(url, init);
}

/**
 * Registration-time check with DNS: the URL rules plus every address the host resolves to
 * right now. Advisory only (DNS can change later); the connection is checked again anyway.
 */
export function checkOutboundDestination(url: string | URL): Promise<OutboundUrlCheck> {
  return sharedClient().check(url);
}

/** Like guardedFetch, but hands back the body as a stream for large downloads (media). */
export function guardedStream(url: string | URL, init?: OutboundRequestInit): Promise<OutboundStreamResponse> {
  return sharedClient().stream(url, init);
}
