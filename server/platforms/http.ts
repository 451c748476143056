// Small HTTP helpers shared by the live platform adapters. Every request goes through the
// guarded outbound client (server/outbound); adapters take the fetcher as an option so tests
// can point them at a local HTTPS server with its own certificate.
import { setTimeout as sleep } from 'node:timers/promises';
import { guardedFetch, type OutboundRequestInit, type OutboundResponse } from '@/server/outbound';
import { env, type PlatformApiBaseUrlVariable } from '@/server/config/env';
import { log } from '@/server/observability/log';

export type Fetcher = (url: string, init?: OutboundRequestInit) => Promise<OutboundResponse>;

/** What every live adapter can be built with; production uses the defaults. */
export interface AdapterOptions {
  fetch?: Fetcher;
  /** Replaces the platform's base URL (otherwise its env var, otherwise the real API). */
  baseUrl?: string;
  /** Deadline of one API request. */
  timeoutMs?: number;
  /** Wait between two status polls. */
  pollIntervalMs?: number;
  /** Most status polls before giving up: bounds how long one publish may wait on the platform (the delivery lease is renewed meanwhile). */
  pollAttempts?: number;
}

/** API calls are small; a platform that takes longer than this is treated as down. */
export const DEFAULT_TIMEOUT_MS = 20_000;
/** Uploads of media bytes get longer (a video part can be several megabytes). */
export const UPLOAD_TIMEOUT_MS = 120_000;
/** API answers are JSON documents; nothing legitimate is this big. */
const API_MAX_BYTES = 2 * 1024 * 1024;

export function defaultFetch(): Fetcher {
  return guardedFetch;
}

/** The base URL from the environment (read per call, so a change needs no restart of the adapter). */
export function baseUrlFromEnv(envName: PlatformApiBaseUrlVariable, fallback: string): string {
  return (env.platformApiBaseUrl(envName) ?? fallback).replace(/\/+$/, '');
}

/**
 * The fetcher and API base URL one publish uses: the adapter's options first, then the
 * environment variable `envName`, then the platform's real API (`fallback`).
 */
export function apiEndpoint(options: AdapterOptions, envName: PlatformApiBaseUrlVariable, fallback: string): { fetch: Fetcher; baseUrl: string } {
  return { fetch: options.fetch ?? defaultFetch(), baseUrl: options.baseUrl ?? baseUrlFromEnv(envName, fallback) };
}

/** Status polling: the adapter's options first, then the configuration (whose defaults say why). */
export function pollSettings(options: AdapterOptions): { intervalMs: number; attempts: number } {
  return {
    intervalMs: options.pollIntervalMs ?? env.platformPollIntervalMs(),
    attempts: options.pollAttempts ?? env.platformPollMaxAttempts(),
  };
}

export interface ApiRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string | number | boolean | undefined>;
  /** Sent as-is (set the content type in headers). */
  body?: string | Uint8Array;
  timeoutMs?: number;
  /**
   * How long the platform asks to wait after a 429, in ms, where it says so somewhere other
   * than the standard Retry-After header (Telegram's parameters.retry_after, Discord's
   * retry_after body field, Reddit's x-ratelimit-reset). Null: it did not say.
   */
  retryAfter?: (response: ApiResponse) => number | null;
}

/** The longest a publish waits out one rate limit; beyond it the 429 is the outcome. */
export const RATE_LIMIT_MAX_WAIT_MS = 60_000;
/** Times one call waits out a rate limit before giving up. */
const RATE_LIMIT_RETRIES = 2;

/** Retry-After as RFC 9110 §10.2.3 defines it: delay-seconds or an HTTP date. Null when absent or unreadable. */
export function retryAfterHeaderMs(headers: Headers, now = Date.now()): number | null {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.ceil(Number(raw) * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or null when it is not JSON. */
  json: unknown;
}

/**
 * One API call through the guarded client. A 429 whose wait the platform states (Retry-After,
 * or the request's own `retryAfter`) and that is at most RATE_LIMIT_MAX_WAIT_MS is waited out
 * and the same request sent again, twice at most: the platform refused it without acting, so
 * sending it again cannot post twice. Any other 429 is returned for the adapter to report.
 */
export async function callApi(fetch: Fetcher, url: string, request: ApiRequest = {}): Promise<ApiResponse> {
  for (let attempt = 0; ; attempt++) {
    const response = await callOnce(fetch, url, request);
    if (response.status !== 429 || attempt >= RATE_LIMIT_RETRIES) return response;
    const waitMs = request.retryAfter?.(response) ?? retryAfterHeaderMs(response.headers);
    if (waitMs === null || !Number.isFinite(waitMs) || waitMs < 0 || waitMs > RATE_LIMIT_MAX_WAIT_MS) return response;
    log.info('platforms', `rate limited by ${new URL(url).host}; waiting ${waitMs} ms as asked`);
    await sleep(waitMs);
  }
}

async function callOnce(fetch: Fetcher, url: string, request: ApiRequest): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | Uint8Array | undefined = request.body;
  if (request.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = formEncode(request.form);
  }
  const response = await fetch(url, {
    method: request.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    timeoutMs: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: API_MAX_BYTES,
  });
  const text = response.body.toString('utf8');
  return { status: response.status, headers: response.headers, text, json: parseJson(text) };
}

export function isSuccess(response: { status: number }): boolean {
  return response.status >= 200 && response.status < 300;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Undefined values are left out, so optional parameters can be passed inline. */
export function formEncode(params: Record<string, string | number | boolean | undefined>): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) form.append(key, String(value));
  }
  return form.toString();
}

export function withQuery(url: string, params: Record<string, string | number | boolean | undefined>): string {
  const query = formEncode(params);
  return query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
}

export interface MultipartPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** multipart/form-data by hand: the guarded client sends bytes, not FormData. */
export function multipartBody(parts: MultipartPart[]): { body: Buffer; contentType: string } {
  const boundary = `----herald${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Calls `step` until it returns a value, at most `attempts` times, waiting `intervalMs`
 * before each call. Returns undefined when the platform never settled.
 */
export async function pollUntil<T>(settings: { intervalMs: number; attempts: number }, step: () => Promise<T | undefined>): Promise<T | undefined> {
  for (let attempt = 0; attempt < settings.attempts; attempt += 1) {
    if (settings.intervalMs > 0) await sleep(settings.intervalMs);
    const result = await step();
    if (result !== undefined) return result;
  }
  return undefined;
}

/** A string property of an untyped JSON value, or undefined. */
export function jsonString(value: unknown, ...path: (string | number)[]): string | undefined {
  const found = jsonAt(value, ...path);
  if (typeof found === 'string') return found;
  if (typeof found === 'number' || typeof found === 'bigint') return String(found);
  return undefined;
}

/** Where a value sits in a JSON document: a top-level key, or a path of keys and indexes. */
export type JsonPath = string | readonly (string | number)[];

/** The first non-empty string property found at one of `paths`, in order, or undefined. */
export function firstJsonString(value: unknown, paths: readonly JsonPath[]): string | undefined {
  for (const path of paths) {
    const found = typeof path === 'string' ? jsonString(value, path) : jsonString(value, ...path);
    if (found) return found;
  }
  return undefined;
}

export function jsonAt(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/**
 * For the calls after a post went live (permalink, first comment): their failure is logged,
 * never thrown, because failing the delivery then would invite a retry that posts twice.
 */
export async function bestEffort<T>(platform: string, what: string, step: () => Promise<T>): Promise<T | null> {
  try {
    return await step();
  } catch (error) {
    log.warn(platform, `the post was published but its ${what} failed`, error);
    return null;
  }
}

/** An API that takes a Bearer token: one call, its refusal mapped by the network's own `toError` unless the status is 2xx. */
export interface BearerClient {
  call(method: 'GET' | 'POST', path: string, request?: ApiRequest): Promise<ApiResponse>;
}

export function bearerClient(
  fetch: Fetcher,
  baseUrl: string,
  accessToken: string,
  toError: (response: ApiResponse) => Error,
  options: { timeoutMs?: number; headers?: Record<string, string> } = {},
): BearerClient {
  return {
    async call(method, path, request = {}) {
      const response = await callApi(fetch, `${baseUrl}${path}`, {
        timeoutMs: options.timeoutMs,
        ...request,
        method,
        headers: { authorization: `Bearer ${accessToken}`, ...options.headers, ...request.headers },
      });
      if (!isSuccess(response)) throw toError(response);
      return response;
    },
  };
}
