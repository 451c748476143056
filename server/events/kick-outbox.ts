// Asks for an outbox drain right after a commit, so events go out within seconds instead of
// at the next cron minute. Never throws: if the queue is unreachable the cron drain still
// picks the events up, and the user's action must not fail for it.
import { getJobs } from '@/server/jobs';

/** One pending drain is enough: the key collapses a burst of commits into a single run. */
export const OUTBOX_DRAIN_KEY = 'outbox.drain';

export async function kickOutboxDrain(): Promise<void> {
  try {
    await getJobs().enqueue('outbox.drain', {}, { key: OUTBOX_DRAIN_KEY });
  } catch (error) {
    console.warn('[outbox] could not enqueue a drain; the scheduled drain will pick the events up', error);
  }
}
