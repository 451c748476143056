// The state rules of a post, in one place: which statuses can be edited, cancelled or
// published, the scheduledAt tolerance, and the approval rule.
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';
import type { Warning } from '@/server/shared/schemas';
import type { ApprovalStatus } from './posts.schemas';

import { EDITABLE_STATUSES } from './post-states';

export { EDITABLE_STATUSES, PUBLISHABLE_STATUSES, RETRYABLE_STATUSES } from './post-states';
export const PAST_TOLERANCE_MS = 5 * 60_000;

export function assertEditable(status: string): void {
  if (!(EDITABLE_STATUSES as readonly string[]).includes(status)) {
    throw new AppError('POST_NOT_EDITABLE', `A ${status.replace('_', ' ')} post cannot be changed`);
  }
}

/**
 * scheduledAt up to 5 minutes in the past is moved to now with a warning; earlier is
 * refused. Returns the effective time.
 */
export function resolveScheduledAt(raw: string, now: Date, warnings: Warning[]): Date {
  const at = new Date(raw);
  const diff = now.getTime() - at.getTime();
  if (diff > PAST_TOLERANCE_MS) {
    throw new AppError('SCHEDULED_TIME_IN_PAST', 'scheduledAt is more than 5 minutes in the past', { field: 'scheduledAt' });
  }
  if (diff > 0) {
    warnings.push({ code: 'SCHEDULED_TIME_COERCED', message: `scheduledAt was ${Math.ceil(diff / 1000)} s in the past and was moved to now` });
    return now;
  }
  return at;
}

/** A post takes a time or a queue slot, not both. */
export function checkQueueOrTime(input: { queue?: boolean; scheduledAt?: string | null }): void {
  if (input.queue && input.scheduledAt !== undefined && input.scheduledAt !== null) {
    throw new AppError('VALIDATION_FAILED', 'send either scheduledAt or queue: true, not both', { field: 'queue' });
  }
}

export function approvalNeeded(workspaceRequires: boolean, postRequires: boolean): boolean {
  return workspaceRequires || postRequires;
}

export const APPROVAL_WARNING: Warning = {
  code: 'APPROVAL_REQUIRED',
  message: 'The post waits for a member to approve it in the app before it goes out',
};

/** Approval statuses that hold a post back from delivery, now or at its scheduled time. */
export const APPROVAL_BLOCKING_STATUSES = ['pending', 'rejected'] as const satisfies readonly ApprovalStatus[];

/** Publishing (now or at the scheduled time) is blocked until a reviewer approves. */
export function isApprovalBlocking(approvalStatus: ApprovalStatus | string): boolean {
  return (APPROVAL_BLOCKING_STATUSES as readonly string[]).includes(approvalStatus);
}

/** The same rule for SQL claims and sweeps: true when `column` (an approvalStatus) lets the post go. */
export function approvalAllowsDeliverySql(column: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${column} NOT IN (${Prisma.join(APPROVAL_BLOCKING_STATUSES)})`;
}
