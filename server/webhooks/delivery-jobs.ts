// The `webhooks.deliver` jobs. A job carries the deliveries of one event (its endpoints, sent
// side by side, claimed and recorded together), or one delivery (a retry, a redelivery, a
// recovered or swept one). A one-delivery job is keyed by the delivery, so a re-enqueue
// replaces a pending one instead of doubling it; a duplicate of any job sends nothing, since
// an attempt first claims its delivery. Enqueueing happens after the delivery rows committed
// and never fails the caller: a delivery whose job went missing (queue unreachable, process
// killed) is found by the sweep (sweep.ts) and queued again.
import { getJobs, WEBHOOK_DELIVERIES_PER_JOB as DELIVERIES_PER_JOB } from '@/server/jobs';
import { log } from '@/server/observability/log';

export const deliveryJobKey = (deliveryId: string) => `webhooks.delivery:${deliveryId}`;

/**
 * Queues one job per group of deliveries (larger groups are split), at `runAt` (default: now),
 * in one round trip.
 */
export async function enqueueDeliveryJobs(groups: readonly (readonly string[])[], runAt?: Date): Promise<void> {
  const jobs: string[][] = [];
  for (const group of groups) {
    for (let i = 0; i < group.length; i += DELIVERIES_PER_JOB) jobs.push(group.slice(i, i + DELIVERIES_PER_JOB));
  }
  if (jobs.length === 0) return;
  try {
    await getJobs().enqueueMany(
      'webhooks.deliver',
      jobs.map((deliveryIds) => ({ payload: { deliveryIds }, key: deliveryIds.length === 1 ? deliveryJobKey(deliveryIds[0]!) : undefined, runAt })),
    );
  } catch (error) {
    const count = jobs.reduce((n, ids) => n + ids.length, 0);
    log.warn('webhooks', `could not queue ${count} delivery job(s); the sweep will queue them`, error);
  }
}

/** Drops the pending jobs of deliveries that will not be attempted again (paused, deleted). */
export async function cancelDeliveryJobs(deliveryIds: readonly string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  const jobs = getJobs();
  await Promise.allSettled(deliveryIds.map((id) => jobs.cancel(deliveryJobKey(id))));
}
