// How a procedure's answer becomes a tool result: the REST body as structuredContent (and as
// text for clients that read only text), errors as `isError` results with the same code and
// message as REST, and a staged call as a plain statement of what waits for whom.
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorCode } from '@/server/errors/catalogue';
import { toErrorResponse, type ErrorResponse } from '@/server/errors/http';
import type { RequestContext } from '@/server/trpc/context';
import { log } from '@/server/observability/log';

export interface ToolError {
  code: string;
  message: string;
  field?: string;
  /** Seconds to wait before calling again (RATE_LIMITED, SERVICE_UNAVAILABLE). */
  retryAfter?: number;
  /** What an assistant does next, in terms of the tools (NEXT_STEP). */
  hint?: string;
}

/**
 * What to do after each refusal, for an assistant: which tool finds the right id, whom to
 * ask, when to retry. Given with every error result and listed once in herald://errors; the
 * catalogue's description says what the code means.
 */
export const NEXT_STEP: Partial<Record<ErrorCode, string>> = {
  POST_NOT_FOUND: 'Find the post’s id with posts_list.',
  POST_NOT_EDITABLE: 'Read the post with posts_get: only draft, scheduled and failed posts change; posts_retry takes failed or partly published ones.',
  CONNECTION_NOT_FOUND: 'Take connectionIds from connections_list.',
  CONNECTION_EXPIRED: 'Leave that account out, or ask a member to reconnect it in Herald.',
  SCHEDULED_TIME_IN_PAST: 'Pick a future scheduledAt, or leave it out for a draft.',
  CONTENT_TOO_LONG: 'Shorten content, or give that platform a shorter text in variants.',
  MEDIA_COUNT_EXCEEDED: 'Send fewer media, or split the post per platform.',
  THREAD_NOT_SUPPORTED: 'Send parts only to X, Bluesky, Threads and Mastodon accounts; post to the others separately without parts.',
  MEDIA_REQUIRED: 'Add mediaIds or mediaUrls, or leave out the platform that needs media.',
  MEDIA_NOT_FOUND: 'Find asset ids with media_list, upload with media_upload_url and media_complete, or pass mediaUrls.',
  MEDIA_IN_USE: 'The message lists the posts using the asset: take it out of them (posts_update) or cancel them first.',
  MEDIA_NOT_READY: 'Finish the upload (PUT the bytes, then media_complete) before using the asset.',
  MEDIA_URL_REFUSED: 'Use a public https URL of an image or video.',
  PLATFORM_SETTING_UNKNOWN: 'Remove or correct the platformSettings key that field names.',
  APPROVAL_REQUIRED: 'A member approves the post in Herald first; tell the user.',
  PROPOSAL_NOT_FOUND: 'Find the actionId with proposals_list.',
  PROPOSAL_NOT_PENDING: 'Read its outcome with proposals_get.',
  WEBHOOK_NOT_FOUND: 'Find the endpoint’s id with webhooks_list.',
  WEBHOOK_DELIVERY_NOT_FOUND: 'Find the delivery’s id with webhooks_deliveries.',
  WEBHOOK_URL_REFUSED: 'Use a public https URL without credentials.',
  WEBHOOK_EVENT_UNKNOWN: 'Correct the event name the message gives (post.published, post.failed, …).',
  WORKSPACE_NOT_FOUND: 'Find the client workspace’s id with workspaces_list.',
  WORKFLOW_NOT_FOUND: 'Find the workflow’s id with workflows_list.',
  WORKFLOW_RUN_NOT_FOUND: 'Find the run’s id with workflows_runs.',
  API_KEY_NOT_FOUND: 'Find the key’s id with api_keys_list.',
  CLIENT_LINK_NOT_FOUND: 'Find the link’s id with workspaces_links.',
  CRAWL_SITE_NOT_FOUND: 'Find the site’s id with crawl_sites.',
  CRAWL_PAGE_NOT_FOUND: 'Find the page’s id with crawl_pages.',
  CRAWL_CHANGE_NOT_FOUND: 'Find the change’s id with crawl_changes.',
  FEED_NOT_FOUND: 'Find the feed’s id with feeds_list.',
  FEED_URL_REFUSED: 'Use the feed’s public https address, without credentials.',
  FEED_UNREADABLE: 'Check the address in a browser: it must answer with the RSS or Atom document itself (not a page about it, and not a redirect).',
  EVERGREEN_NOT_FOUND: 'Make the post evergreen with evergreen_set, or find the evergreen posts with evergreen_list.',
  EVERGREEN_NOT_ELIGIBLE: 'Pick a post that is published (posts_list with status published), or the source post a repeat names.',
  INBOX_DRAFT_NOT_FOUND: 'Read the item with inbox_get: drafts lists its drafts and which are still pending.',
  REPLY_WINDOW_CLOSED:
    'The network no longer accepts an answer to this conversation (inbox_get → replyWindow); tell the user, who may answer on the network by other means.',
  REVIEW_ALREADY_ANSWERED: 'Change the existing answer with inbox_edit_reply, or take it down with inbox_delete_reply.',
  LINK_NOT_FOUND: 'Find the link’s id with links_for_post (a post’s tracked links).',
  SCOPE_MISSING: 'This key lacks the scope; ask a member for a key with it. tools/list shows only what this key may call.',
  WORKSPACE_NOT_MANAGED: 'Use the key’s own workspace or one it manages (workspaces_list).',
  RATE_LIMITED: 'Wait retryAfter seconds, then call again.',
  SERVICE_UNAVAILABLE: 'Retry after retryAfter seconds with the same idempotencyKey.',
  INTERNAL_ERROR: 'Retry once with the same idempotencyKey; if it fails again, tell the user.',
  IDEMPOTENCY_IN_FLIGHT: 'Retry shortly with the same idempotencyKey to get the first call’s result.',
  IDEMPOTENCY_KEY_CONFLICT: 'Use a fresh idempotencyKey for a different call.',
  VALIDATION_FAILED: 'Fix the argument the message (and field) names, then call again.',
  BAD_REQUEST: 'Fix the arguments the message names (the tool’s input schema describes each), then call again.',
  UNAUTHORIZED: 'The key is missing, expired or revoked; the user needs a new one.',
};

/** The code and one-line message of any error, whichever body shape REST gives it. */
export function toolErrorOf(mapped: ErrorResponse): ToolError {
  const body = mapped.body;
  let error: ToolError;
  if ('statusCode' in body) error = { code: mapped.code, message: Array.isArray(body.message) ? body.message.join('; ') : body.message };
  else error = { code: body.error.code, message: body.error.message, ...(body.error.field ? { field: body.error.field } : {}) };
  const retryAfter = Number(mapped.headers['Retry-After']);
  if (Number.isFinite(retryAfter) && retryAfter > 0) error.retryAfter = retryAfter;
  const hint = NEXT_STEP[error.code as ErrorCode];
  if (hint) error.hint = hint;
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

/**
 * A procedure's answer as a tool result. `structuredJson` is set when the text block is the
 * structured content's JSON (the usual case): the endpoint then writes that JSON once more
 * in place of serializing the same content a second time (answerJson).
 */
export function successResult(data: unknown, ctx: RequestContext): { result: CallToolResult; structuredJson?: string } {
  if (data === undefined || data === null) return { result: { content: [{ type: 'text', text: 'Done.' }] } };
  if (ctx.response.status === 202 && typeof data === 'object' && 'staged' in data) {
    const { staged } = data as StagedBody;
    return {
      result: {
        content: [
          {
            type: 'text',
            text:
              `Staged, not done yet: "${staged.title}" awaits a member's confirmation in Herald (action ${staged.actionId}, ` +
              `open ${staged.confirmUrl}; expires ${staged.expiresAt}). Follow up with proposals_get.`,
          },
        ],
        structuredContent: data as Record<string, unknown>,
      },
    };
  }
  const structuredJson = JSON.stringify(data);
  return { result: { content: [{ type: 'text', text: structuredJson }], structuredContent: data as Record<string, unknown> }, structuredJson };
}

/**
 * One JSON-RPC answer's JSON, in pieces to be written one after another (utf8Bytes). A tool
 * result whose text block is a JSON its call recorded in `structuredJson` (successResult) is
 * written with that text as its structured content, byte for byte what JSON.stringify would
 * give (the content is the value that text was made from), without walking a page of posts a
 * second time or joining the answer into one more string its size: those were the tool path's
 * largest costs over REST (docs/performance.md, step 14). Anything else is serialized as it is.
 */
export function answerJson(message: JSONRPCMessage, structuredJson: ReadonlySet<string>): string[] {
  if ('result' in message && message.result.structuredContent !== undefined) {
    const { content, structuredContent: _written, ...rest } = message.result as CallToolResult;
    const block = content?.length === 1 ? content[0] : undefined;
    if (block?.type === 'text' && Object.keys(block).length === 2 && Object.keys(rest).length === 0 && structuredJson.has(block.text)) {
      return [
        '{"result":{"content":[{"type":"text","text":',
        JSON.stringify(block.text),
        '}],"structuredContent":',
        block.text,
        `},"jsonrpc":"2.0","id":${JSON.stringify(message.id)}}`,
      ];
    }
  }
  return [JSON.stringify(message)];
}
