// The background side of publishing: the per-post delivery job and the catch-up sweep.
import { db } from '@/server/db/client';
import { heldByPausedQueueSql } from '@/server/queue/posting-queue';
import { Prisma } from '@/server/generated/prisma/client';
import { approvalAllowsDeliverySql } from '../post-rules';
import { getJobs } from '@/server/jobs';
import { scheduleDelivery } from './schedule';
import { deliverPost } from './deliver-post';
import { log } from '@/server/observability/log';

/**
 * Job `posts.deliver`: publish a scheduled post at its time. Does nothing when the post
 * changed since the job was queued (rescheduled, cancelled, approval changed: the version
 * moved on), is waiting for approval, or is being delivered by a live instance. Takes over a
 * delivery whose owner died (its lease lapsed).
 */
export async function runScheduledDelivery(postId: string, scheduleVersion: number): Promise<void> {
  if (await deliverPost({ workspaceId: null, postId, mode: 'scheduled', expectedVersion: scheduleVersion })) return;
  // Not claimed: superseded, cancelled, waiting for approval — or the job ran early (clock
  // skew between hosts), in which case it goes back in the queue for its time.
  const post = await db.post.findUnique({ where: { id: postId }, select: { status: true, scheduleVersion: true, scheduledAt: true, approvalStatus: true } });
  if (post?.status === 'scheduled' && post.scheduleVersion === scheduleVersion && post.scheduledAt && post.scheduledAt.getTime() > Date.now()) {
    await scheduleDelivery({ id: postId, scheduledAt: post.scheduledAt, scheduleVersion });
  }
}

/** The one wake-up the sweep keeps for the earliest live lease (replaced, never piled up). */
const LEASE_WAKE_KEY = 'posts.catch-up:lease';

/**
 * Job `posts.catch-up` (every minute, at start, and when the earliest delivery lease ends):
 * delivers scheduled posts whose time has passed but whose job is missing — the queue was
 * down when they were scheduled, or the app was down at their time — and takes over
 * deliveries whose owner died (lease lapsed). Deliveries whose lease is live are left to
 * their owner; the sweep wakes itself when the earliest of those leases would lapse, so a
 * crashed instance's posts settle about one lease after the crash, not at the next minute.
 */
export async function catchUpScheduledPosts(opts: { graceMs?: number; batch?: number } = {}): Promise<number> {
  const before = new Date(Date.now() - (opts.graceMs ?? 30_000));
  const due = await db.$queryRaw<{ id: string; scheduleVersion: number }[]>`
    SELECT "id", "scheduleVersion" FROM "Post"
    WHERE ("status" = 'scheduled' AND "scheduledAt" <= ${before} AND ${approvalAllowsDeliverySql(Prisma.sql`"approvalStatus"`)}
           AND NOT ${heldByPausedQueueSql(Prisma.sql`"Post"`)})
       OR ("status" = 'publishing' AND ("deliveryLeaseUntil" IS NULL OR "deliveryLeaseUntil" <= now()))
    ORDER BY "scheduledAt" ASC NULLS FIRST
    LIMIT ${opts.batch ?? 1000}`;
  for (const p of due) await scheduleDelivery({ id: p.id, scheduledAt: new Date(), scheduleVersion: p.scheduleVersion });

  const [live] = await db.$queryRaw<{ next: Date | null }[]>`
    SELECT min("deliveryLeaseUntil") AS next FROM "Post" WHERE "status" = 'publishing' AND "deliveryLeaseUntil" > now()`;
  if (live?.next) {
    await getJobs()
      .enqueue('posts.catch-up', {}, { runAt: new Date(live.next.getTime() + 1_000), key: LEASE_WAKE_KEY })
      .catch((err: unknown) => log.warn('publishing', 'could not schedule the lease check; the minute sweep will do it', err));
  }
  return due.length;
}
