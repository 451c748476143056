// Stuck and overdue posts, defined once. A post past its scheduled minute that has not gone
// out is `overdue`; a delivery that stopped making progress is `stuck`. The API carries the
// same condition as the `alert` field of every post and the `alert` filter of GET /posts
// (docs/decisions.md); the app shows it on the dashboard and in the list, with one action.
import { Prisma } from '@/server/generated/prisma/client';
import { epochMs, iso, type Stamp } from '@/server/shared/schemas';
import { isApprovalBlocking } from './post-rules';
import type { AlertFilter, PostAlert } from './posts.schemas';

/** The delivery job runs at the scheduled minute and the sweep within a minute after it: two minutes late is overdue. */
export const OVERDUE_AFTER_MS = 2 * 60_000;
/** A delivery whose lease lapsed, or whose post has been publishing this long, is stuck. */
export const STUCK_AFTER_MS = 10 * 60_000;

export { ALERT_ACTIONS, ALERT_KINDS, type AlertFilter, type PostAlert } from './posts.schemas';

/** Timestamps as Prisma reads them (Date) or as the hot reads give them (ISO 8601 strings). */
interface AlertInput {
  status: string;
  approvalStatus: string;
  scheduledAt: Stamp | null;
  updatedAt: Stamp;
  deliveryLeaseUntil: Stamp | null;
}

/** `now` is passed once for a whole page, so a page of rows does not make a Date per row. */
export function postAlert(p: AlertInput, now: Date = new Date()): PostAlert | null {
  if (p.status === 'scheduled' && p.scheduledAt && now.getTime() - epochMs(p.scheduledAt) > OVERDUE_AFTER_MS) {
    const since = iso(p.scheduledAt);
    if (p.approvalStatus === 'rejected')
      return { kind: 'overdue', reason: 'Rejected by a reviewer and its time has passed: edit it and pick a new time', action: 'reschedule', since };
    if (isApprovalBlocking(p.approvalStatus))
      return { kind: 'overdue', reason: 'Still waiting for approval after its scheduled time', action: 'review', since };
    return { kind: 'overdue', reason: 'Its scheduled time passed and delivery has not started', action: 'publish_now', since };
  }
  if (p.status === 'publishing') {
    const lapsed = p.deliveryLeaseUntil === null || epochMs(p.deliveryLeaseUntil) <= now.getTime();
    if (lapsed || now.getTime() - epochMs(p.updatedAt) > STUCK_AFTER_MS)
      return {
        kind: 'stuck',
        reason: lapsed ? 'The delivery stopped (its runner went away) before every account had an outcome' : 'Publishing has made no progress for 10 minutes',
        action: 'publish_now',
        since: iso(p.updatedAt),
      };
  }
  return null;
}

/** The same condition in SQL, for the list filter and the dashboard counts (tested against postAlert). */
export function alertSql(filter: AlertFilter, now: Date = new Date()): Prisma.Sql {
  const overdueBefore = new Date(now.getTime() - OVERDUE_AFTER_MS);
  const stuckBefore = new Date(now.getTime() - STUCK_AFTER_MS);
  const overdue = Prisma.sql`("status" = 'scheduled' AND "scheduledAt" < ${overdueBefore})`;
  const stuck = Prisma.sql`("status" = 'publishing' AND ("deliveryLeaseUntil" IS NULL OR "deliveryLeaseUntil" <= ${now} OR "updatedAt" < ${stuckBefore}))`;
  if (filter === 'overdue') return overdue;
  if (filter === 'stuck') return stuck;
  return Prisma.sql`(${overdue} OR ${stuck})`;
}
