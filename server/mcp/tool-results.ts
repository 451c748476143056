// How a procedure's answer becomes a tool result: the REST body as structuredContent (and as
// text for clients that read only text), errors as `isError` results with the same code and
// message as REST, and a staged call as a plain statement of what waits for whom.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toErrorResponse, type ErrorResponse } from '@/server/errors/http';
import type { RequestContext } from '@/server/trpc/context';
import { log } from '@/server/observability/log';

export interface ToolError {
  code: string;
  message: string;
  field?: string;
  /** Seconds to wait before calling again (RATE_LIMITED, SERVICE_UNAVAILABLE). */
  retryAfter?: number;
}

/** The code and one-line message of any error, whichever body shape REST gives it. */
export function toolErrorOf(mapped: ErrorResponse): ToolError {
  const body = mapped.body;
  let error: ToolError;
  if ('statusCode' in body) error = { code: mapped.code, message: Array.isArray(body.message) ? body.message.join('; ') : body.message };
  else error = { code: body.error.code, message: body.error.message, ...(body.error.field ? { field: body.error.field } : {}) };
  const retryAfter = Number(mapped.headers['Retry-After']);
  if (Number.isFinite(retryAfter) && retryAfter > 0) error.retryAfter = retryAfter;
  return error;
}

export function errorResult(err: unknown): CallToolResult {
  const mapped = toErrorResponse(err);
  if (mapped.code === 'INTERNAL_ERROR') log.error('mcp', 'unexpected error', err);
  // The error as JSON text and no structuredContent: a tool's output schema describes its
  // success, and clients that check structuredContent against it on errors too (as some
  // released ones do) would otherwise reject the answer instead of showing the error.
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: toolErrorOf(mapped) }) }] };
}

interface StagedBody {
  staged: { actionId: string; title: string; confirmUrl: string; expiresAt: string };
}

export function successResult(data: unknown, ctx: RequestContext): CallToolResult {
  if (data === undefined || data === null) return { content: [{ type: 'text', text: 'Done.' }] };
  if (ctx.response.status === 202 && typeof data === 'object' && 'staged' in data) {
    const { staged } = data as StagedBody;
    return {
      content: [
        {
          type: 'text',
          text:
            `Staged, not done yet: "${staged.title}" awaits a member's confirmation in Herald (action ${staged.actionId}, ` +
            `open ${staged.confirmUrl}; expires ${staged.expiresAt}). Follow up with proposals_get.`,
        },
      ],
      structuredContent: data as Record<string, unknown>,
    };
  }
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data as Record<string, unknown> };
}
