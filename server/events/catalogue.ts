// The domain events Herald emits (public-api-v1.md → Events). Webhook subscribers choose from
// these names; `ping` is not here because the test route sends it directly, never via the outbox.
import { z } from 'zod';

export const DOMAIN_EVENT_TYPES = [
  'post.scheduled',
  'post.published',
  'post.failed',
  'post.approval_required',
  'post.approved',
  'post.evergreen_requeued',
  'post.thread_stopped',
  'connection.error',
  'workflow.run.completed',
  'workflow.run.failed',
  'proposal.staged',
  'proposal.confirmed',
  'comment.received',
  'comment.replied',
  'message.received',
  'review.received',
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

/**
 * What each event means, in the words of the contract's catalogue ("When"). The staff app shows
 * these beside the event picker; defined here so the list and its descriptions cannot drift.
 */
export const DOMAIN_EVENT_DESCRIPTIONS: { readonly [T in DomainEventType]: string } = {
  'post.scheduled': 'A post was scheduled or rescheduled for a future time.',
  'post.published': 'One account shipped a post (one event per target).',
  'post.failed': 'One account failed to publish a post (one event per target).',
  'post.approval_required': 'A scheduled post is waiting for a reviewer.',
  'post.approved': 'A reviewer approved a pending post.',
  'post.evergreen_requeued': 'An evergreen post was added to the posting queue again, as a new post (its repeat).',
  'post.thread_stopped': 'A thread stopped at a part one account’s network did not take; a retry continues from that part.',
  'connection.error': 'A connected social account stopped working and needs reconnecting.',
  'workflow.run.completed': 'A workflow run finished.',
  'workflow.run.failed': 'A workflow run failed.',
  'proposal.staged': 'The assistant staged an action that needs confirmation.',
  'proposal.confirmed': 'A member confirmed a staged assistant action.',
  'comment.received': 'A new comment (or reply) arrived under a post Herald published (one event per comment).',
  'comment.replied': 'A reply written in Herald went out to the network.',
  'message.received': 'A direct message from someone else arrived in one of the account’s conversations (one event per message).',
  'review.received': 'A new review of the account arrived (a Google location’s stars, a Facebook recommendation; one event per review).',
};

/** `data` of each event as delivered. Times are ISO 8601 strings (they travel as JSON). */
export interface DomainEventData {
  'post.scheduled': { postId: string; scheduledAt: string; platforms: string[] };
  'post.published': {
    postId: string;
    targetId: string;
    platform: string;
    connectionId: string;
    postedId: string | null;
    permalink: string | null;
    publishedAt: string;
    confirmedAt: string | null;
  };
  'post.failed': {
    postId: string;
    targetId: string;
    platform: string;
    error: { code: string; message: string };
    failedAt: string;
  };
  'post.approval_required': { postId: string };
  'post.approved': { postId: string; approvedBy: string };
  'post.evergreen_requeued': { postId: string; sourcePostId: string; repeat: number; scheduledAt: string; content: string };
  'post.thread_stopped': { postId: string; targetId: string; platform: string; position: number; error: { code: string; message: string }; stoppedAt: string };
  'connection.error': { connectionId: string; platform: string; reason: string };
  // The contract leaves `summary` and the workflow `error` unspecified.
  'workflow.run.completed': { workflowId: string; runId: string; summary: unknown };
  'workflow.run.failed': { workflowId: string; runId: string; error: unknown };
  'proposal.staged': { actionId: string; toolName: string; title: string };
  // `outcome` (beyond the contract): how the confirmed call went — the REST error code when it failed.
  'proposal.confirmed': { actionId: string; toolName: string; title: string; outcome: { ok: boolean; error: { code: string; message: string } | null } };
  'comment.received': {
    itemId: string;
    postId: string;
    connectionId: string;
    platform: string;
    externalId: string;
    parentExternalId: string | null;
    authorName: string;
    text: string;
    createdAt: string;
    postPublishedAt: string;
  };
  'comment.replied': {
    itemId: string;
    inReplyToId: string;
    postId: string;
    connectionId: string;
    platform: string;
    externalId: string;
    permalink: string | null;
    repliedBy: string;
    sentAt: string;
  };
  'message.received': {
    itemId: string;
    connectionId: string;
    platform: string;
    conversationId: string;
    externalId: string;
    authorName: string;
    text: string;
    createdAt: string;
  };
  'review.received': {
    itemId: string;
    connectionId: string;
    platform: string;
    externalId: string;
    authorName: string;
    rating: number | null;
    recommends: boolean | null;
    text: string;
    createdAt: string;
  };
}

const ZPostId = z.uuid().describe('The post the event is about (GET /posts/{id})').meta({ example: '5b0f8f8e-2c7a-4c1e-9a57-0f6a1d3c2b11' });
const ZTargetId = z.uuid().describe('The delivery row of one account (a target of the post)').meta({ example: '9d2c4e7a-1b3f-4a8e-8c5d-6e7f8a9b0c1d' });
const ZConnectionId = z.uuid().describe('The connected account (GET /connections)').meta({ example: '3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c' });
const ZEventPlatform = z.string().describe('The platform id of the account, e.g. linkedin').meta({ example: 'linkedin' });
const ZAt = (what: string) => z.iso.datetime({ offset: true }).describe(what).meta({ example: '2026-11-22T20:31:07.412Z' });
const ZInboxItemId = z.uuid().describe('The inbox item (GET /inbox/{id})').meta({ example: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b' });
const ZWorkflowId = z.string().describe('The built-in workflow that ran (GET /workflows)').meta({ example: 'repurpose-post' });
const ZRunId = z.uuid().describe('The run (GET /workflows/runs/{runId})').meta({ example: '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0' });
const ZActionId = z.uuid().describe('The staged assistant action (GET /proposals/{id})').meta({ example: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d' });
const ZToolName = z.string().describe('The tool the assistant called').meta({ example: 'posts_create' });
const ZTitle = z
  .string()
  .describe('The staged call in one readable line')
  .meta({ example: 'Schedule a post to 2 account(s) for 2026-11-24T09:00:00Z: "Our autumn menu is here"' });

/**
 * `data` of each event as delivered: exactly these top-level fields, in this order, a missing
 * reading as null (never 0 or ""). The webhook envelopes are built from these field lists
 * (envelope.ts), and the OpenAPI document's `webhooks` section from these schemas: one source.
 */
export const DOMAIN_EVENT_DATA_SCHEMAS = {
  'post.scheduled': z.object({
    postId: ZPostId,
    scheduledAt: ZAt('When the post will publish'),
    platforms: z
      .array(z.string())
      .describe('Platform ids of its targets')
      .meta({ example: ['linkedin', 'facebook'] }),
  }),
  'post.published': z.object({
    postId: ZPostId,
    targetId: ZTargetId,
    platform: ZEventPlatform,
    connectionId: ZConnectionId,
    postedId: z
      .string()
      .nullable()
      .describe('The id of the post on the platform; null when a member marked it published from its address after an interruption')
      .meta({ example: 'urn:li:share:7130000000000000000' }),
    permalink: z
      .string()
      .nullable()
      .describe('The public address of the post; null when the platform returned none')
      .meta({ example: 'https://www.linkedin.com/feed/update/urn:li:share:7130000000000000000' }),
    publishedAt: ZAt('When the platform accepted the post'),
    confirmedAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .describe('Set when the attempt was cut off (a crash, a timeout) and Herald confirmed with the network that the post is there: when it asked')
      .meta({ example: null }),
  }),
  'post.failed': z.object({
    postId: ZPostId,
    targetId: ZTargetId,
    platform: ZEventPlatform,
    error: z
      .object({
        code: z
          .string()
          .describe(
            'PLATFORM_ERROR (the platform refused; message is its text), CONNECTION_EXPIRED (reconnect the account), DELIVERY_ERROR (Herald could not finish the attempt), DELIVERY_UNCONFIRMED (the attempt was cut off and the network could not be asked or did not answer: message says what Herald knows; check the account)',
          )
          .meta({ example: 'PLATFORM_ERROR' }),
        message: z.string().describe('The platform’s error text, verbatim').meta({ example: 'The access token has expired' }),
      })
      .describe('Why the account failed'),
    failedAt: ZAt('When the last attempt failed'),
  }),
  'post.approval_required': z.object({ postId: ZPostId }),
  'post.approved': z.object({
    postId: ZPostId,
    approvedBy: z
      .string()
      .describe('Who approved it: the member’s user id, or `review-link:<link id>` when a client approved through a review link')
      .meta({ example: 'review-link:6d1f0a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b' }),
  }),
  'post.evergreen_requeued': z.object({
    postId: ZPostId.describe('The repeat: a new post in the posting queue (GET /posts/{id})'),
    sourcePostId: z.uuid().describe('The evergreen post it repeats (GET /posts/{id}/evergreen)').meta({ example: '1a2b3c4d-5e6f-4a70-8b91-c2d3e4f5a6b7' }),
    repeat: z.number().int().describe('Which repeat this is: 1 for the first').meta({ example: 2 }),
    scheduledAt: ZAt('The queue slot it takes'),
    content: z
      .string()
      .describe('The text it goes out with (the rotation’s pick)')
      .meta({ example: 'Still on the menu: pumpkin spice, every day this autumn.' }),
  }),
  'post.thread_stopped': z.object({
    postId: ZPostId,
    targetId: z.uuid().describe('The account’s delivery of the post (its target)').meta({ example: '9d2c4e7a-1b3f-4a8e-8c5d-6e7f8a9b0c1d' }),
    platform: ZEventPlatform,
    position: z.number().int().describe('The part that did not go out: 2 for the first reply; the parts before it are posted').meta({ example: 3 }),
    error: z
      .object({
        code: z.string().describe('PLATFORM_ERROR (the network refused the part) or DELIVERY_UNCONFIRMED (cut off, and the network could not say)'),
        message: z.string().describe('The network’s words, or what Herald knows'),
      })
      .describe('Why the part did not go out'),
    stoppedAt: ZAt('When the thread stopped'),
  }),
  'connection.error': z.object({
    connectionId: ZConnectionId,
    platform: ZEventPlatform,
    reason: z.string().describe('What stopped working, in words; reconnect the account in the app').meta({ example: 'The LinkedIn token expired' }),
  }),
  'workflow.run.completed': z.object({
    workflowId: ZWorkflowId,
    runId: ZRunId,
    summary: z
      .unknown()
      .describe('What the run produced; its shape depends on the workflow (GET /workflows/runs/{runId} has the same)')
      .meta({ example: { draftsCreated: 3 } }),
  }),
  'workflow.run.failed': z.object({
    workflowId: ZWorkflowId,
    runId: ZRunId,
    error: z
      .unknown()
      .describe('Why the run failed; its shape depends on the workflow')
      .meta({ example: { code: 'VALIDATION_FAILED', message: 'repurpose-post takes a published post; this one is draft' } }),
  }),
  'proposal.staged': z.object({ actionId: ZActionId, toolName: ZToolName, title: ZTitle }),
  'proposal.confirmed': z.object({ actionId: ZActionId, toolName: ZToolName, title: ZTitle }),
  'comment.received': z.object({
    itemId: ZInboxItemId,
    postId: ZPostId,
    connectionId: ZConnectionId,
    platform: ZEventPlatform,
    externalId: z.string().describe('The comment’s id on the network').meta({ example: '17858893269000001' }),
    parentExternalId: z.string().nullable().describe('The network id of the comment it answers; null when it answers the post').meta({ example: null }),
    authorName: z.string().describe('Who wrote it, by the network’s name').meta({ example: 'Maya Chen' }),
    text: z.string().describe('Its text as read').meta({ example: 'Do you ship to Canada?' }),
    createdAt: ZAt('When it was written, by the network’s clock'),
    postPublishedAt: ZAt('When the post it is under was published'),
  }),
  'comment.replied': z.object({
    itemId: ZInboxItemId.describe('The reply (an inbox item of its own, GET /inbox/{id})'),
    inReplyToId: ZInboxItemId.describe('The inbox item it answers'),
    postId: ZPostId,
    connectionId: ZConnectionId,
    platform: ZEventPlatform,
    externalId: z.string().describe('The reply’s id on the network').meta({ example: '17858893269000002' }),
    permalink: z.string().nullable().describe('The reply’s address on the network, where it has one').meta({ example: null }),
    repliedBy: z.string().describe('Who wrote it in Herald: a member’s name or the key’s label').meta({ example: 'Ada Lovelace' }),
    sentAt: ZAt('When the network accepted it'),
  }),
  'message.received': z.object({
    itemId: ZInboxItemId,
    connectionId: ZConnectionId,
    platform: ZEventPlatform,
    conversationId: z.string().describe('The network’s conversation (for Meta, the person’s id scoped to the account)').meta({ example: '6723419827354187' }),
    externalId: z.string().describe('The message’s id on the network').meta({ example: 'm_Xq9yL2sd0k1' }),
    authorName: z.string().describe('Who wrote it, by the network’s name (its id where the network names nobody)').meta({ example: 'Maya Chen' }),
    text: z.string().describe('Its text (empty for an image alone)').meta({ example: 'Is the Saturday tasting still on?' }),
    createdAt: ZAt('When it was sent, by the network’s clock'),
  }),
  'review.received': z.object({
    itemId: ZInboxItemId,
    connectionId: ZConnectionId,
    platform: ZEventPlatform,
    externalId: z.string().describe('The review’s id on the network').meta({ example: 'AbFvOqn9Xk2' }),
    authorName: z.string().describe('The reviewer’s name').meta({ example: 'Maya Chen' }),
    rating: z.number().int().min(1).max(5).nullable().describe('Stars, 1 to 5 (Google); null for a Facebook recommendation').meta({ example: 1 }),
    recommends: z.boolean().nullable().describe('Facebook: recommends (true) or not (false); null elsewhere').meta({ example: null }),
    text: z.string().describe('The review’s words (empty for stars alone)').meta({ example: 'Waited forty minutes for a cold flat white.' }),
    createdAt: ZAt('When it was written, by the network’s clock'),
  }),
} satisfies { [T in DomainEventType]: z.ZodObject };

/** The data of the test route's `ping` (not subscribable: it never passes through the outbox). */
export const PING_DATA_SCHEMA = z.object({
  endpointId: z.uuid().describe('The endpoint the ping was sent to').meta({ example: '2b3c4d5e-6f70-4a81-92a3-b4c5d6e7f809' }),
  message: z.string().describe('A fixed sentence saying this is a test').meta({ example: 'A test delivery from Herald: this endpoint is reachable.' }),
});

/**
 * The top-level fields of each event's `data`, as the contract lists them (read from the
 * schemas above). Webhook envelopes carry exactly these, a missing reading as null.
 */
export const DOMAIN_EVENT_FIELDS = Object.fromEntries(
  DOMAIN_EVENT_TYPES.map((type) => [type, Object.keys(DOMAIN_EVENT_DATA_SCHEMAS[type].shape)]),
) as unknown as { [T in DomainEventType]: readonly (keyof DomainEventData[T])[] };

export function isDomainEventType(value: string): value is DomainEventType {
  return (DOMAIN_EVENT_TYPES as readonly string[]).includes(value);
}
