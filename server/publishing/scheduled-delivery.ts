// The background side of publishing: the per-post delivery job and the catch-up sweep.
import { db } from '@/server/db/client';
import { scheduleDelivery } from '@/server/posts/delivery-schedule';
import { deliverPost } from './deliver-post';

/**
 * Job `posts.deliver`: publish a scheduled post at its time. Does nothing when the post
 * changed since the job was queued (rescheduled, cancelled, approval changed: the version
 * moved on) or is waiting for approval. Resumes a delivery a crash interrupted.
 */
export async function runScheduledDelivery(postId: string, scheduleVersion: number): Promise<void> {
  if (await deliverPost(null, postId, 'scheduled', scheduleVersion)) return;
  // Not claimed: superseded, cancelled, waiting for approval — or the job ran early (clock
  // skew between hosts), in which case it goes back in the queue for its time.
  const post = await db.post.findUnique({ where: { id: postId }, select: { status: true, scheduleVersion: true, scheduledAt: true, approvalStatus: true } });
  if (post?.status === 'scheduled' && post.scheduleVersion === scheduleVersion && post.scheduledAt && post.scheduledAt.getTime() > Date.now()) {
    await scheduleDelivery({ id: postId, scheduledAt: post.scheduledAt, scheduleVersion });
  }
}

/**
 * Job `posts.catch-up` (every minute, and at start): delivers scheduled posts whose time
 * has passed but whose job is missing — the queue was down when they were scheduled, or
 * the app was down at their time — and resumes deliveries a crash left in `publishing`.
 */
export async function catchUpScheduledPosts(opts: { graceMs?: number; batch?: number } = {}): Promise<number> {
  const before = new Date(Date.now() - (opts.graceMs ?? 30_000));
  const due = await db.post.findMany({
    where: {
      OR: [
        { status: 'scheduled', scheduledAt: { lte: before }, approvalStatus: { in: ['none', 'approved'] } },
        { status: 'publishing', updatedAt: { lte: new Date(Date.now() - 5 * 60_000) } },
      ],
    },
    select: { id: true, scheduleVersion: true },
    orderBy: { scheduledAt: 'asc' },
    take: opts.batch ?? 1000,
  });
  for (const p of due) await scheduleDelivery({ id: p.id, scheduledAt: new Date(), scheduleVersion: p.scheduleVersion });
  return due.length;
}
