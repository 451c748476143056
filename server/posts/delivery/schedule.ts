// Scheduled delivery: one job per scheduled post, keyed by the post so that rescheduling
// replaces it and cancelling drops it. The job carries the post's scheduleVersion; a job
// that outlived a reschedule finds a newer version and does nothing, so a lost cancel can
// never publish at the old time. Enqueueing never fails a user action: the catch-up sweep
// (posts.catch-up, every minute) delivers anything whose job went missing.
import { getJobs } from '@/server/jobs';
import { log } from '@/server/observability/log';

export const deliveryJobKey = (postId: string) => `post-delivery:${postId}`;

export async function scheduleDelivery(post: { id: string; scheduledAt: Date | null; scheduleVersion: number }): Promise<void> {
  try {
    await getJobs().enqueue(
      'posts.deliver',
      { postId: post.id, scheduleVersion: post.scheduleVersion },
      { runAt: post.scheduledAt ?? new Date(), key: deliveryJobKey(post.id) },
    );
  } catch (err) {
    log.warn('posts', `could not enqueue delivery of ${post.id}; the catch-up sweep will deliver it`, err, { postId: post.id });
  }
}

export async function unscheduleDelivery(postId: string): Promise<void> {
  try {
    await getJobs().cancel(deliveryJobKey(postId));
  } catch (err) {
    log.warn('posts', `could not cancel the delivery job of ${postId}; it will find the post changed and do nothing`, err, { postId });
  }
}
