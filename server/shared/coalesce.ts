// Coalescing without waiting: the first call flushes at once; calls that arrive while flushes
// are in flight (at most `inFlight` of them) wait for one to end and then go together in the
// next one. At a quiet moment nothing waits for a timer; under load one flush carries many
// calls, so a hot path costs one statement (or one enqueue) per flush instead of one per call:
// the group commit of a database, for any batchable write.

export interface CoalesceOptions<T> {
  /** The most items one flush carries (default 1,000). */
  maxBatch?: number;
  /** How many flushes may run at once (default 1). */
  inFlight?: number;
  /**
   * Whether `item` may join `batch` (default: always). One that may not waits, in its turn,
   * for a later flush: two writes of the same row, say, that one statement could not make.
   */
  fits?: (batch: readonly T[], item: T) => boolean;
}

/**
 * Returns a function that queues one item and resolves with its result. `flush` gets the
 * items collected so far and returns one result per item, in order; if it throws, every caller
 * of that flush gets the error.
 */
export function coalesce<T, R>(
  flush: (items: readonly T[]) => Promise<readonly R[]>,
  { maxBatch = 1_000, inFlight = 1, fits }: CoalesceOptions<T> = {},
): (item: T) => Promise<R> {
  type Entry = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void };
  let queue: Entry[] = [];
  let running = 0;

  /** The oldest entries that fit together, in order; the others keep their place in the queue. */
  function take(): Entry[] {
    if (!fits) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      return batch;
    }
    const batch: Entry[] = [];
    const items: T[] = [];
    const left: Entry[] = [];
    for (const entry of queue) {
      if (batch.length < maxBatch && (batch.length === 0 || fits(items, entry.item))) {
        batch.push(entry);
        items.push(entry.item);
      } else left.push(entry);
    }
    queue = left;
    return batch;
  }

  async function run(): Promise<void> {
    running++;
    try {
      while (queue.length > 0) {
        const batch = take();
        try {
          const results = await flush(batch.map((entry) => entry.item));
          batch.forEach((entry, i) => entry.resolve(results[i] as R));
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      running--;
    }
  }

  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (running < inFlight) void run();
    });
}
