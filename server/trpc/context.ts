// The request context every transport builds: which headers (who is asking is added by
// the authenticating middleware, typed from there on), and a mutable response holder that middlewares and
// procedures write the status and headers into (tRPC copies ctx between middlewares, so
// the holder must be an object shared by reference).
export type Transport = 'rest' | 'trpc' | 'mcp';

export interface ResponseHolder {
  status?: number;
  headers: Record<string, string>;
}

export interface RequestContext {
  transport: Transport;
  headers: Headers;
  /** A signed-in staff member (UI); null for API-key callers. */
  staffUserId: string | null;
  response: ResponseHolder;
}

export function createRequestContext(opts: { transport: Transport; headers: Headers; staffUserId?: string | null }): RequestContext {
  return { transport: opts.transport, headers: opts.headers, staffUserId: opts.staffUserId ?? null, response: { headers: {} } };
}
