// The `webhooks.deliver` jobs: one per attempt of a delivery, keyed by the delivery so a
// re-enqueue replaces a pending one instead of doubling it. Enqueueing happens after the
// delivery row committed and never fails the caller: a delivery whose job went missing (queue
// unreachable, process killed) is found by the sweep (sweep.ts) and queued again.
import { getJobs } from '@/server/jobs';
import { log } from '@/server/observability/log';

export const deliveryJobKey = (deliveryId: string) => `webhooks.delivery:${deliveryId}`;

/** Queues one attempt per delivery, at `runAt` (default: now), in one round trip. */
export async function enqueueDeliveryJobs(deliveryIds: readonly string[], runAt?: Date): Promise<void> {
  if (deliveryIds.length === 0) return;
  try {
    await getJobs().enqueueMany(
      'webhooks.deliver',
      deliveryIds.map((deliveryId) => ({ payload: { deliveryId }, key: deliveryJobKey(deliveryId), runAt })),
    );
  } catch (error) {
    log.warn('webhooks', `could not queue ${deliveryIds.length} delivery job(s); the sweep will queue them`, error);
  }
}

/** Drops the pending jobs of deliveries that will not be attempted again (paused, deleted). */
export async function cancelDeliveryJobs(deliveryIds: readonly string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  const jobs = getJobs();
  await Promise.allSettled(deliveryIds.map((id) => jobs.cancel(deliveryJobKey(id))));
}
