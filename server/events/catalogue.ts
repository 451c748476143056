// The domain events Herald emits (public-api-v1.md → Events). Webhook subscribers choose from
// these names; `ping` is not here because the test route sends it directly, never via the outbox.

export const DOMAIN_EVENT_TYPES = [
  'post.scheduled',
  'post.published',
  'post.failed',
  'post.approval_required',
  'post.approved',
  'connection.error',
  'workflow.run.completed',
  'workflow.run.failed',
  'proposal.staged',
  'proposal.confirmed',
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
  'connection.error': 'A connected social account stopped working and needs reconnecting.',
  'workflow.run.completed': 'A workflow run finished.',
  'workflow.run.failed': 'A workflow run failed.',
  'proposal.staged': 'The assistant staged an action that needs confirmation.',
  'proposal.confirmed': 'A member confirmed a staged assistant action.',
};

/** `data` of each event as delivered. Times are ISO 8601 strings (they travel as JSON). */
export interface DomainEventData {
  'post.scheduled': { postId: string; scheduledAt: string; platforms: string[] };
  'post.published': {
    postId: string;
    targetId: string;
    platform: string;
    connectionId: string;
    postedId: string;
    permalink: string | null;
    publishedAt: string;
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
  'connection.error': { connectionId: string; platform: string; reason: string };
  // The contract leaves `summary` and the workflow `error` unspecified.
  'workflow.run.completed': { workflowId: string; runId: string; summary: unknown };
  'workflow.run.failed': { workflowId: string; runId: string; error: unknown };
  'proposal.staged': { actionId: string; toolName: string; title: string };
  // `outcome` (beyond the contract): how the confirmed call went — the REST error code when it failed.
  'proposal.confirmed': { actionId: string; toolName: string; title: string; outcome: { ok: boolean; error: { code: string; message: string } | null } };
}

/**
 * The top-level fields of each event's `data`, as the contract lists them. Webhook envelopes
 * carry exactly these, a missing reading as null (never 0 or an empty string).
 */
export const DOMAIN_EVENT_FIELDS: { [T in DomainEventType]: readonly (keyof DomainEventData[T])[] } = {
  'post.scheduled': ['postId', 'scheduledAt', 'platforms'],
  'post.published': ['postId', 'targetId', 'platform', 'connectionId', 'postedId', 'permalink', 'publishedAt'],
  'post.failed': ['postId', 'targetId', 'platform', 'error', 'failedAt'],
  'post.approval_required': ['postId'],
  'post.approved': ['postId', 'approvedBy'],
  'connection.error': ['connectionId', 'platform', 'reason'],
  'workflow.run.completed': ['workflowId', 'runId', 'summary'],
  'workflow.run.failed': ['workflowId', 'runId', 'error'],
  'proposal.staged': ['actionId', 'toolName', 'title'],
  'proposal.confirmed': ['actionId', 'toolName', 'title'],
};

export function isDomainEventType(value: string): value is DomainEventType {
  return (DOMAIN_EVENT_TYPES as readonly string[]).includes(value);
}
