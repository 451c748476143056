// The error catalogue: every error code Herald answers, with its HTTP status, declared once.
// REST bodies, tRPC errors, tool-endpoint errors and the OpenAPI document all read this table.
// The first block is the contract's catalogue (public-api-v1.md → Errors → Catalogue); the
// second holds the codes the contract leaves open (see docs/decisions.md).

import { MAX_BODY_BYTES, MAX_HTTP_HEADER_BYTES, MAX_URL_BYTES } from '@/server/shared/http-limits';

export type ErrorShape = 'envelope' | 'flat';

interface CatalogueEntry {
  status: number;
  /** Statuses other than `status` that the same code can carry (e.g. VALIDATION_FAILED 409). */
  altStatuses?: readonly number[];
  /** The alternative statuses are route-specific: documented only where a route's meta.errorWhen names them. */
  altStatusesPerRoute?: boolean;
  /** `envelope` → `{ error: { code, message, field? } }`; `flat` → `{ statusCode, message, error }`. */
  shape: ErrorShape;
  description: string;
}

export const ERROR_CATALOGUE = {
  MEDIA_REQUIRED: { status: 400, shape: 'envelope', description: 'The post targets a platform that needs media and carries none.' },
  MEDIA_NOT_FOUND: { status: 404, shape: 'envelope', description: 'A mediaIds entry is not a media asset in this workspace.' },
  MEDIA_NOT_READY: { status: 409, shape: 'envelope', description: 'The asset is not completed, or its bytes are not yet in storage.' },
  MEDIA_TOO_LARGE: {
    status: 400,
    shape: 'envelope',
    description: 'Over 15 MB for images, 500 MB for video by upload, 25 MB for video by URL, or over the target channel’s video size cap.',
  },
  MEDIA_TOO_LONG: { status: 400, shape: 'envelope', description: 'Video longer than the target channel allows.' },
  MEDIA_URL_REFUSED: { status: 400, shape: 'envelope', description: 'The URL is not public https, did not answer 2xx, or did not return an image or video.' },
  MEDIA_IN_USE: {
    status: 409,
    shape: 'envelope',
    description: 'The media asset is used by posts that are not cancelled; the message lists them. Remove it from them (or cancel them) first.',
  },
  MEDIA_STORAGE_UNAVAILABLE: { status: 503, shape: 'envelope', description: 'Object storage is not configured or not reachable; nothing was written.' },
  SCHEDULED_TIME_IN_PAST: { status: 400, shape: 'envelope', description: 'scheduledAt is more than 5 minutes in the past.' },
  PLATFORM_SETTING_UNKNOWN: {
    status: 400,
    shape: 'envelope',
    description: 'A platformSettings key is unknown, mistyped, or for a platform the post does not target; field names the path.',
  },
  POST_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No post with that id in this workspace.' },
  POST_NOT_EDITABLE: { status: 409, shape: 'envelope', description: 'The post is publishing, published, partially published or cancelled.' },
  CONNECTION_NOT_FOUND: { status: 404, shape: 'envelope', description: 'A connectionIds entry is not in this workspace.' },
  CONNECTION_EXPIRED: { status: 409, shape: 'envelope', description: 'The connection is not active or its token expired; reconnect it in the app.' },
  APPROVAL_REQUIRED: { status: 409, shape: 'envelope', description: 'The post is pending approval; a member approves it in the app.' },
  IDEMPOTENCY_KEY_CONFLICT: { status: 422, shape: 'envelope', description: 'The Idempotency-Key was used with a different request.' },
  IDEMPOTENCY_IN_FLIGHT: {
    status: 409,
    shape: 'envelope',
    description: 'A request with this Idempotency-Key is still running; retry with the same key to get its result.',
  },
  SCOPE_MISSING: { status: 403, shape: 'envelope', description: 'The key lacks the route’s scope.' },
  VALIDATION_FAILED: {
    status: 400,
    altStatuses: [409],
    altStatusesPerRoute: true,
    shape: 'envelope',
    description:
      'A rule on the input failed (Idempotency-Key over 255 characters, unaccepted contentType, a mint request whose only scope is workspaces:manage, a missing or malformed query parameter of the analytics and crawl routes, named in field); 409 for a taken workspace slug.',
  },
  WEBHOOK_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No webhook endpoint with that id.' },
  WEBHOOK_URL_REFUSED: { status: 400, shape: 'envelope', description: 'Not https, localhost/private/link-local address, or credentials in the URL.' },
  WEBHOOK_EVENT_UNKNOWN: { status: 400, shape: 'envelope', description: 'Event name outside the catalogue.' },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No delivery with that id on that endpoint.' },
  WORKSPACE_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No managed workspace with that id under this key’s workspace.' },
  WORKSPACE_NOT_MANAGED: {
    status: 403,
    altStatuses: [400],
    shape: 'envelope',
    description: 'The workspace header names a workspace the key cannot act for (403), or is not a single uuid (400).',
  },
  WORKSPACE_HEADER_NOT_ALLOWED: { status: 400, shape: 'envelope', description: 'The workspace header was sent to a /workspaces/* route.' },
  CONNECT_TOKEN_INVALID: { status: 404, shape: 'envelope', description: 'The hosted connect link never existed or was rotated away.' },
  CONNECT_TOKEN_EXPIRED: { status: 410, shape: 'envelope', description: 'The hosted connect link is past expiresAt.' },
  CONNECT_SESSION_INVALID: { status: 401, shape: 'envelope', description: 'The 15-minute connect session is bad or its link is no longer live.' },

  // ── Codes the contract leaves open (docs/decisions.md) ──
  CONTENT_TOO_LONG: {
    status: 400,
    shape: 'envelope',
    description: 'The text (or its variant) is longer than a targeted platform allows; the message names the platform and its limit.',
  },
  MEDIA_COUNT_EXCEEDED: {
    status: 400,
    shape: 'envelope',
    description:
      'More images or videos than a targeted platform accepts in one post, or a mix it does not accept; the message names the platform and its limit.',
  },
  THREAD_NOT_SUPPORTED: {
    status: 400,
    shape: 'envelope',
    description:
      'The post has parts (a thread), and a targeted network takes no threads: only X, Bluesky, Threads and Mastodon do; the message names the network and why.',
  },
  API_KEY_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No API key with that id in this workspace; GET /api-keys lists them.' },
  CLIENT_LINK_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No client link with that id on that managed workspace.' },
  PROPOSAL_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No staged assistant action with that id in this workspace.' },
  PROPOSAL_NOT_PENDING: {
    status: 409,
    shape: 'envelope',
    description: 'The staged action was already declined or expired (or, for decline, already confirmed); nothing changed.',
  },
  WORKFLOW_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No built-in workflow with that id; GET /workflows lists them.' },
  WORKFLOW_RUN_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No workflow run with that id in this workspace.' },
  AD_ACCOUNT_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No ad account with that id in this workspace; GET /ad-accounts lists them.' },
  CRAWL_SITE_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No crawl site with that id in this workspace; GET /crawl/sites lists them.' },
  CRAWL_PAGE_NOT_FOUND: {
    status: 404,
    shape: 'envelope',
    description: 'No tracked page with that id in this workspace (or not on the given site); GET /crawl/pages lists them.',
  },
  CRAWL_CHANGE_NOT_FOUND: {
    status: 404,
    shape: 'envelope',
    description: 'No detected change with that id in this workspace; GET /crawl/changes lists them.',
  },
  QUEUE_NO_SLOTS: {
    status: 409,
    shape: 'envelope',
    description: 'A post was added to the queue, but a target account has no queue slots (its own or the workspace’s); field names it.',
  },
  QUEUE_FULL: {
    status: 409,
    shape: 'envelope',
    description: 'Every queue slot the post’s accounts share is taken for the next 12 weeks; add slots or schedule the post by hand.',
  },
  IMPORT_INVALID: {
    status: 422,
    shape: 'envelope',
    description:
      'A post import has rows that break a rule of POST /posts (or whose media could not be fetched): nothing was imported; the message names the first, POST /posts/import/preview lists every one per row and column.',
  },
  TARGET_UNCONFIRMED: {
    status: 409,
    shape: 'envelope',
    description:
      'An account of the post was cut off while publishing and Herald could not confirm with the network whether it went out: check the account, then mark it published or send again with confirmNotPublished: true.',
  },
  INBOX_ITEM_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No inbox item with that id in this workspace; GET /inbox lists them.' },
  ACTION_NOT_OFFERED: {
    status: 409,
    shape: 'envelope',
    description:
      'The network does not let Herald do this with the item (reply, hide, delete or like), or the item was deleted on the network; the message says why (docs/inbox.md).',
  },
  PLATFORM_REFUSED: {
    status: 502,
    shape: 'envelope',
    description: 'The network refused the action; the message is its error text, verbatim. Nothing changed on the network.',
  },
  REPLY_WINDOW_CLOSED: {
    status: 409,
    shape: 'envelope',
    description:
      'The network no longer lets the account answer this conversation: its reply window (Meta’s 24 hours after the person’s last message) is closed; the message says since when (GET /inbox/{id} → replyWindow).',
  },
  REVIEW_ALREADY_ANSWERED: {
    status: 409,
    shape: 'envelope',
    description:
      'The review has an answer already (a network keeps one per review): change it with PUT /inbox/{id}/reply or take it down with DELETE /inbox/{id}/reply.',
  },
  INBOX_DRAFT_NOT_FOUND: {
    status: 404,
    shape: 'envelope',
    description: 'No pending draft with that id on this inbox item (it was sent, discarded, or never made); GET /inbox/{id} lists its drafts.',
  },
  SAVED_REPLY_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No saved reply with that id in this workspace.' },
  FEED_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No feed with that id in this workspace; GET /feeds lists them.' },
  FEED_URL_REFUSED: {
    status: 400,
    shape: 'envelope',
    description: 'The feed URL is not https, carries credentials, names localhost, or its host is (or resolves to) a private or reserved address.',
  },
  FEED_UNREADABLE: {
    status: 422,
    shape: 'envelope',
    description:
      'The feed URL did not answer with an RSS or Atom feed (an error status, a redirect, a timeout, or a document that is not a feed); the message says which.',
  },
  EVERGREEN_NOT_FOUND: {
    status: 404,
    shape: 'envelope',
    description: 'The post is not evergreen (or no post with that id in this workspace); PUT /posts/{id}/evergreen makes it one.',
  },
  EVERGREEN_NOT_ELIGIBLE: {
    status: 409,
    shape: 'envelope',
    description: 'Only a published or partially published post can be evergreen, and not a repeat of another evergreen post (its source is the one to change).',
  },
  LINK_NOT_FOUND: {
    status: 404,
    shape: 'envelope',
    description: 'No tracked link with that id in this workspace (GET /posts/{id}/links lists a post’s), or no short link with that code.',
  },
  UNAUTHORIZED: { status: 401, shape: 'flat', description: 'Missing, malformed, expired, unknown or revoked API key.' },
  RATE_LIMITED: { status: 429, shape: 'flat', description: 'The workspace spent its per-minute request budget; retry after Retry-After seconds.' },
  BAD_REQUEST: { status: 400, shape: 'flat', description: 'The request body or query failed schema validation (one message per problem).' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, shape: 'flat', description: 'A body was sent without Content-Type: application/json.' },
  PAYLOAD_TOO_LARGE: { status: 413, shape: 'flat', description: `The request body is over ${MAX_BODY_BYTES} bytes.` },
  URI_TOO_LONG: { status: 414, shape: 'flat', description: `The path and query string are over ${MAX_URL_BYTES} bytes.` },
  // What Herald's HTTP server answers for requests Node's parser refuses before any route sees
  // them (server/http/client-error.ts): on every route, so the document lists them on every
  // operation. The connection is closed after the answer.
  MALFORMED_REQUEST: {
    status: 400,
    shape: 'flat',
    description: 'The request cannot be read as HTTP/1.1 (a control character in a header value, for one); the connection is closed.',
  },
  REQUEST_TIMEOUT: { status: 408, shape: 'flat', description: 'The request did not arrive in time; the connection is closed.' },
  REQUEST_HEADER_FIELDS_TOO_LARGE: {
    status: 431,
    shape: 'flat',
    description: `The request line and headers are over ${MAX_HTTP_HEADER_BYTES} bytes (a very long URL included); the connection is closed.`,
  },
  ROUTE_NOT_FOUND: { status: 404, shape: 'envelope', description: 'No route at this method and path.' },
  FORBIDDEN: { status: 403, shape: 'envelope', description: 'The signed-in member may not do this.' },
  INTERNAL_ERROR: { status: 500, shape: 'envelope', description: 'An unexpected error; nothing was half-written. Retry with the same Idempotency-Key.' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    shape: 'envelope',
    description:
      'Herald cannot reach its database right now. Retry after Retry-After seconds with the same Idempotency-Key: a write either happened once or not at all.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The flat-body `error` text for each status (NestJS-style reason phrases). */
export const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};
