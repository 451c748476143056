// The approval queue: a member approves or rejects a pending post in the app, or the client
// does on the agency's review link (server/client-review/); both go through these functions.
// Approving emits post.approved; an approved post whose time has passed goes out at once.
// Rejecting (with a reason) keeps it from going out; editing a rejected post puts it back
// in the queue (update-post.ts).
import type { Actor } from '@/server/auth/actor';
import { db } from '@/server/db/client';
import { kickOutboxDrain } from '@/server/events';
import { recordEvent } from '@/server/events/record-event';
import { AppError } from '@/server/errors/app-error';
import { notifyLinkIssuer } from '@/server/notifications/notifications';
import { shorten } from '@/server/shared/text';
import { scheduleDelivery, unscheduleDelivery } from './delivery/schedule';
import { lockPost } from './lock-post';
import { toPostDto } from './post-dto';
import { z } from 'zod';
import { isUuid, ZNullableTimestamp } from '@/server/shared/schemas';
import { ZPost, type PostDto } from './posts.schemas';

/**
 * Who approves or rejects: a member in the app, or a client through a review link. The
 * post's approvedBy/rejectedBy column holds the member's user id or the link's id; the
 * post.approved event's `approvedBy` says which (`review-link:<id>` for a link).
 */
export type Reviewer =
  { kind: 'member'; userId: string } | { kind: 'reviewLink'; linkId: string; link: { issuedById: string; workspace: { id: string; name: string } } };

/** Approvals are a member's act in the app: an API key cannot approve or reject. */
function reviewerOf(actor: Actor): Reviewer {
  if (actor.kind !== 'staff' || !actor.userId) throw new AppError('FORBIDDEN', 'Posts are approved by a member in the app');
  return { kind: 'member', userId: actor.userId };
}

const reviewerRowId = (r: Reviewer): string => (r.kind === 'member' ? r.userId : r.linkId);
const reviewerEventId = (r: Reviewer): string => (r.kind === 'member' ? r.userId : `review-link:${r.linkId}`);

function assertPending(approvalStatus: string): void {
  if (approvalStatus !== 'pending') throw new AppError('POST_NOT_EDITABLE', `The post is not waiting for approval (approval is ${approvalStatus})`);
}

export async function approvePost(actor: Actor, id: string): Promise<PostDto> {
  return approvePostAs(actor.workspaceId, reviewerOf(actor), id);
}

export async function approvePostAs(workspaceId: string, reviewer: Reviewer, id: string): Promise<PostDto> {
  const post = await db.$transaction(async (tx) => {
    const locked = await lockPost(tx, workspaceId, id);
    assertPending(locked.approvalStatus);
    const updated = await tx.post.update({
      where: { id: locked.id },
      data: { approvalStatus: 'approved', approvedBy: reviewerRowId(reviewer), approvedAt: new Date(), scheduleVersion: { increment: 1 } },
      include: { targets: true },
    });
    await recordEvent(tx, { workspaceId, type: 'post.approved', data: { postId: locked.id, approvedBy: reviewerEventId(reviewer) } });
    if (reviewer.kind === 'reviewLink') {
      await notifyLinkIssuer(tx, reviewer.link, 'client.approved', `${reviewer.link.workspace.name} approved a post`, `“${shorten(locked.content)}”`, {
        postId: locked.id,
      });
    }
    return updated;
  });
  void kickOutboxDrain();
  // A scheduled post runs at its time, or now if that has passed; a draft waits to be scheduled or published.
  if (post.status === 'scheduled')
    await scheduleDelivery({ ...post, scheduledAt: post.scheduledAt && post.scheduledAt > new Date() ? post.scheduledAt : new Date() });
  return toPostDto(post);
}

export async function rejectPost(actor: Actor, id: string, reason: string): Promise<PostDto> {
  return rejectPostAs(actor.workspaceId, reviewerOf(actor), id, reason);
}

export async function rejectPostAs(workspaceId: string, reviewer: Reviewer, id: string, reason: string): Promise<PostDto> {
  const post = await db.$transaction(async (tx) => {
    const locked = await lockPost(tx, workspaceId, id);
    assertPending(locked.approvalStatus);
    if (reviewer.kind === 'reviewLink') {
      await notifyLinkIssuer(
        tx,
        reviewer.link,
        'client.rejected',
        `${reviewer.link.workspace.name} sent a post back`,
        `“${shorten(locked.content)}”: ${reason}`,
        {
          postId: locked.id,
        },
      );
    }
    return tx.post.update({
      where: { id: locked.id },
      data: {
        approvalStatus: 'rejected',
        rejectedBy: reviewerRowId(reviewer),
        rejectedAt: new Date(),
        rejectionReason: reason,
        scheduleVersion: { increment: 1 },
      },
      include: { targets: true },
    });
  });
  await unscheduleDelivery(post.id);
  return toPostDto(post);
}

export const ZPendingApproval = ZPost.extend({
  requestedBy: z.string().nullable().describe('Who put the post in the queue: a member, or an API key by name'),
  requestedAt: ZNullableTimestamp,
});
export type PendingApprovalDto = z.infer<typeof ZPendingApproval>;

/** The queue itself: pending posts, oldest scheduled first, with who asked and when. */
export async function listPendingApprovals(workspaceId: string): Promise<PendingApprovalDto[]> {
  const rows = await db.post.findMany({
    where: { workspaceId, approvalStatus: 'pending', status: { in: ['draft', 'scheduled'] } },
    orderBy: [{ scheduledAt: 'asc' }, { createdAt: 'asc' }],
    include: { targets: true },
    take: 200,
  });
  return rows.map((r) => ({ ...toPostDto(r), requestedBy: r.approvalRequestedBy, requestedAt: r.approvalRequestedAt?.toISOString() ?? null }));
}

/** A post's way through the approval queue, with people named: for the post's page in the app. */
export const ZApprovalHistory = z.object({
  approvalStatus: z.string(),
  requestedBy: z.string().nullable(),
  requestedAt: ZNullableTimestamp,
  /** A member's name (or email), or `Client review link`. */
  decidedBy: z.string().nullable(),
  decidedAt: ZNullableTimestamp,
  rejectionReason: z.string().nullable(),
});
export type ApprovalHistoryDto = z.infer<typeof ZApprovalHistory>;

export async function getApprovalHistory(workspaceId: string, id: string): Promise<ApprovalHistoryDto> {
  const post = isUuid(id)
    ? await db.post.findFirst({
        where: { id, workspaceId },
        select: {
          approvalStatus: true,
          approvalRequestedBy: true,
          approvalRequestedAt: true,
          approvedBy: true,
          approvedAt: true,
          rejectedBy: true,
          rejectedAt: true,
          rejectionReason: true,
        },
      })
    : null;
  if (!post) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  const rejected = post.approvalStatus === 'rejected';
  const deciderId = rejected ? post.rejectedBy : post.approvalStatus === 'approved' ? post.approvedBy : null;
  // The column holds a member's user id or a review link's id (see Reviewer above).
  const member = deciderId ? await db.user.findUnique({ where: { id: deciderId }, select: { name: true, email: true } }) : null;
  return {
    approvalStatus: post.approvalStatus,
    requestedBy: post.approvalRequestedBy,
    requestedAt: post.approvalRequestedAt?.toISOString() ?? null,
    decidedBy: deciderId ? (member ? (member.name ?? member.email) : 'Client review link') : null,
    decidedAt: (rejected ? post.rejectedAt : post.approvalStatus === 'approved' ? post.approvedAt : null)?.toISOString() ?? null,
    rejectionReason: rejected ? post.rejectionReason : null,
  };
}
