'use client';
// The app's tRPC client: the same router as the REST API, with the selected workspace sent
// in the same selection header the API uses.
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@/server/root';
import { HEADERS } from '@/server/shared/headers';

let workspaceId: string | null = null;
export function setWorkspace(id: string): void {
  workspaceId = id;
}

export const trpc = createTRPCClient<AppRouter>({
  links: [httpBatchLink({ url: '/api/trpc', maxItems: 10, headers: () => (workspaceId ? { [HEADERS.workspace]: workspaceId } : {}) })],
});

export interface ServerError {
  code: string;
  message: string;
  /** The input path the server named (`content`, `variants.twitter.content`, `connectionIds[1]` …). */
  field?: string;
  /** A schema refusal: one message per problem, each starting with its path. */
  messages?: string[];
}

/** The error as the server answered it (the same code/message/field as the REST body). */
export function serverError(err: unknown): ServerError {
  if (err instanceof TRPCClientError) {
    const herald = (err.data as { herald?: { code: string; body: unknown } } | undefined)?.herald;
    const body = herald?.body as { error?: { code: string; message: string; field?: string }; message?: string | string[] } | undefined;
    // The flat validation body has `error: "Bad Request"` (a string): only the envelope's is an object.
    if (typeof body?.error === 'object') return { code: body.error.code, message: body.error.message, field: body.error.field };
    if (body?.message !== undefined) {
      const messages = Array.isArray(body.message) ? body.message : [body.message];
      return { code: herald!.code, message: messages.join('; '), messages };
    }
    return { code: herald?.code ?? 'INTERNAL_ERROR', message: err.message };
  }
  return { code: 'NETWORK_ERROR', message: err instanceof Error ? err.message : 'The request failed' };
}

/** A refusal of an owner-and-admin screen, in the member's terms rather than the key's. */
export function adminOnly(err: unknown, what: string): string {
  const e = serverError(err);
  return e.code === 'SCOPE_MISSING' ? `${what} are managed by the workspace’s owners and admins; your role cannot see them.` : e.message;
}
