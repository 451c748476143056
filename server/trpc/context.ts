// The request context every transport builds: which headers (who is asking is added by
// the authenticating middleware, typed from there on), and a mutable response holder that middlewares and
// procedures write the status and headers into (tRPC copies ctx between middlewares, so
// the holder must be an object shared by reference).
import type { KeyPrincipal } from '@/server/auth/authenticate-key';

export type Transport = 'rest' | 'trpc' | 'mcp';

export interface ResponseHolder {
  status?: number;
  headers: Record<string, string>;
}

/** A tool-endpoint call (server/mcp): what staging needs to know about it. */
export interface AssistantCall {
  /** The tool-endpoint session the call arrived in (null for a confirmed action run later). */
  sessionId: string | null;
  toolName: string;
  /**
   * The call may be staged for a member's confirmation: its arguments passed the tool's
   * input schema (invalid ones run, to fail exactly as over REST) and it is not the run of
   * an action a member already confirmed.
   */
  stageable: boolean;
}

export interface RequestContext {
  transport: Transport;
  headers: Headers;
  /** A signed-in staff member (UI); null for API-key callers. */
  staffUserId: string | null;
  /** The staff member's own session token: the one their account changes keep (others end). */
  sessionToken?: string | null;
  /**
   * A key already authenticated by the transport (the tool endpoint checks the key once per
   * HTTP request; a confirmed staged action runs under its key, re-checked by id).
   */
  principal?: KeyPrincipal;
  assistant?: AssistantCall;
  response: ResponseHolder;
}

export function createRequestContext(opts: {
  transport: Transport;
  headers: Headers;
  staffUserId?: string | null;
  sessionToken?: string | null;
  principal?: KeyPrincipal;
  assistant?: AssistantCall;
}): RequestContext {
  return {
    transport: opts.transport,
    headers: opts.headers,
    staffUserId: opts.staffUserId ?? null,
    sessionToken: opts.sessionToken ?? null,
    principal: opts.principal,
    assistant: opts.assistant,
    response: { headers: {} },
  };
}
