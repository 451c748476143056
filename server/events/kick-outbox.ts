// Asks for an outbox drain right after a commit, so events go out within a second instead of
// at the next cron minute. Never throws: if the queue is unreachable the cron drain still
// picks the events up, and the user's action must not fail for it.
//
// Kicks are coalesced: every kick within KICK_COALESCE_MS shares one enqueue. Under load
// (thousands of deliveries a minute) that keeps the single `outbox.drain` job row from
// becoming a point of contention, at the price of at most that much added latency.
import { registerCloser } from '@/server/db/connections';
import { getJobs } from '@/server/jobs';
import { log } from '@/server/observability/log';

/** One pending drain is enough: the key collapses a burst of commits into a single run. */
export const OUTBOX_DRAIN_KEY = 'outbox.drain';
const KICK_COALESCE_MS = 200;

let timer: ReturnType<typeof setTimeout> | undefined;
let waiting: Array<() => void> = [];
let unregister: (() => void) | undefined;

/** On shutdown a pending kick is dropped: the events are safe in the outbox for the next drain. */
async function dropPendingKick(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = undefined;
  unregister = undefined;
  const done = waiting;
  waiting = [];
  for (const resolve of done) resolve();
}

async function flush(): Promise<void> {
  timer = undefined;
  unregister?.();
  unregister = undefined;
  const done = waiting;
  waiting = [];
  try {
    await getJobs().enqueue('outbox.drain', {}, { key: OUTBOX_DRAIN_KEY });
  } catch (error) {
    log.warn('outbox', 'could not enqueue a drain; the scheduled drain will pick the events up', error);
  } finally {
    for (const resolve of done) resolve();
  }
}

/** Resolves once the drain is queued (or queueing failed and was logged). */
export function kickOutboxDrain(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!timer) {
      timer = setTimeout(() => void flush(), KICK_COALESCE_MS);
      unregister = registerCloser(dropPendingKick);
    }
  });
}
