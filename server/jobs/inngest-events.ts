// The event contract between the Inngest adapter (which sends) and inngest/functions.ts
// (which is triggered). Kept apart so neither imports the other.

/** Event that runs job `name`: `herald/outbox.drain`, … */
export function jobEventName(name: string): string {
  return `herald/${name}`;
}

/** Sent by `cancel(key)`; every job function cancels on it when the key matches. */
export const JOB_CANCEL_EVENT = 'herald/job.cancel';

export interface JobEventData {
  payload: unknown;
  /**
   * The caller's key, or a unique one when none was given. Every job event carries a key so
   * that the "superseded by a newer event with the same key" rule never matches two unrelated
   * keyless jobs.
   */
  key: string;
  /** Unique per enqueue: lets a run tell the event that started it from a newer one. */
  enqueueId: string;
  /** ISO time to sleep until before running, or null to run now. */
  runAt: string | null;
}

export interface JobCancelData {
  key: string;
}
