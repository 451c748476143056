// Coalescing without waiting: the first call flushes at once; calls that arrive while a flush
// is in flight wait for it and then go together in the next one. At a quiet moment nothing
// waits for a timer; under load one flush carries many calls, so a hot path costs one
// statement (or one enqueue) per flush instead of one per call.

/**
 * Returns a function that queues one item and resolves with its result. `flush` gets the
 * items collected so far (at most `maxBatch`) and returns one result per item, in order; if
 * it throws, every caller of that flush gets the error.
 */
export function coalesce<T, R>(flush: (items: readonly T[]) => Promise<readonly R[]>, maxBatch = 1_000): (item: T) => Promise<R> {
  let queue: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  let running = false;

  async function run(): Promise<void> {
    running = true;
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        try {
          const results = await flush(batch.map((entry) => entry.item));
          batch.forEach((entry, i) => entry.resolve(results[i] as R));
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      running = false;
    }
  }

  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!running) void run();
    });
}
