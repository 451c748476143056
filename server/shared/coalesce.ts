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
  /**
   * Items with the same key are never in two flushes running at once (they may share one): an
   * item whose key is in a running flush waits, in its turn, for a flush after that one ends.
   * Two statements writing one account's rows at once do not see each other's.
   */
  exclusive?: (item: T) => string;
}

/**
 * Returns a function that queues one item and resolves with its result. `flush` gets the
 * items collected so far and returns one result per item, in order; if it throws, every caller
 * of that flush gets the error.
 */
export function coalesce<T, R>(
  flush: (items: readonly T[]) => Promise<readonly R[]>,
  { maxBatch = 1_000, inFlight = 1, fits, exclusive }: CoalesceOptions<T> = {},
): (item: T) => Promise<R> {
  type Entry = { item: T; key: string | undefined; resolve: (result: R) => void; reject: (error: unknown) => void };
  let queue: Entry[] = [];
  let running = 0;
  /** The exclusive keys of the running flushes, with how many of their items hold each. */
  const busy = new Map<string, number>();

  /** The oldest entries that may go together now, in order; the others keep their place in the queue. */
  function take(): Entry[] {
    if (!fits && !exclusive) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      return batch;
    }
    const batch: Entry[] = [];
    const items: T[] = [];
    const left: Entry[] = [];
    for (const entry of queue) {
      const free = entry.key === undefined || !busy.has(entry.key);
      if (free && batch.length < maxBatch && (batch.length === 0 || !fits || fits(items, entry.item))) {
        batch.push(entry);
        items.push(entry.item);
      } else left.push(entry);
    }
    queue = left;
    return batch;
  }

  const hold = (batch: readonly Entry[], by: 1 | -1) => {
    for (const { key } of batch) {
      if (key === undefined) continue;
      const n = (busy.get(key) ?? 0) + by;
      if (n > 0) busy.set(key, n);
      else busy.delete(key);
    }
  };

  async function run(): Promise<void> {
    running++;
    try {
      for (let batch = take(); batch.length > 0; batch = take()) {
        hold(batch, 1);
        try {
          const results = await flush(batch.map((entry) => entry.item));
          batch.forEach((entry, i) => entry.resolve(results[i] as R));
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        } finally {
          hold(batch, -1);
          // Items that waited for these keys may go now, beside this flush's next one.
          start();
        }
      }
    } finally {
      running--;
    }
  }

  /** Starts flushes while there is room and something queued (one with nothing it may take ends at once). */
  function start(): void {
    while (running < inFlight && queue.length > 0) {
      const before = running;
      void run();
      // run() took nothing (everything queued waits for a key): no point starting more.
      if (running === before) break;
    }
  }

  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, key: exclusive?.(item), resolve, reject });
      start();
    });
}
