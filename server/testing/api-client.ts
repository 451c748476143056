// A tiny HTTP client for API tests: JSON in, { status, body, headers } out. The body is typed
// from the route's zod output schema (api-routes.ts), with the error shapes overlaid.
import type { ResponseBodyOf } from './api-routes';

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export type ApiCall = ReturnType<typeof apiClient>;

export function apiClient(baseUrl: string) {
  return async function call<const Method extends string, const Path extends string>(
    method: Method,
    path: Path,
    opts: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<ResponseBodyOf<Method, Path>>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${baseUrl}/public/v1${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed as ResponseBodyOf<Method, Path>, headers: res.headers, text };
  };
}
