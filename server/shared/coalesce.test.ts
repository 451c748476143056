// Coalescing without waiting: the first call flushes at once, those arriving while flushes run
// go together in the next, at most `inFlight` flushes run at once, and an item that does not
// fit a batch keeps its place for the next one.
import { describe, expect, it } from 'vitest';
import { coalesce } from '@/server/shared/coalesce';

/** A flush that records each batch and ends when `release` is called. */
function gatedFlush<T>() {
  const batches: T[][] = [];
  let running = 0;
  let most = 0;
  const gates: Array<() => void> = [];
  const flush = async (items: readonly T[]) => {
    batches.push([...items]);
    most = Math.max(most, ++running);
    await new Promise<void>((resolve) => gates.push(resolve));
    running--;
    return items.map((i) => `done ${String(i)}`);
  };
  const releaseAll = async () => {
    while (gates.length) {
      gates.shift()!();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { flush, batches, releaseAll, most: () => most };
}

describe('coalesce', () => {
  it('flushes the first call at once and the calls that arrive meanwhile together', async () => {
    const g = gatedFlush<number>();
    const add = coalesce(g.flush);
    const results = [1, 2, 3, 4].map(add);
    expect(g.batches).toEqual([[1]]);
    await g.releaseAll();
    expect(await Promise.all(results)).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(g.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('runs at most inFlight flushes at once, and caps a batch at maxBatch', async () => {
    const g = gatedFlush<number>();
    const add = coalesce(g.flush, { inFlight: 2, maxBatch: 3 });
    const results = [1, 2, 3, 4, 5, 6, 7, 8].map(add);
    expect(g.batches).toEqual([[1], [2]]);
    await g.releaseAll();
    await Promise.all(results);
    expect(g.batches).toEqual([[1], [2], [3, 4, 5], [6, 7, 8]]);
    expect(g.most()).toBe(2);
  });

  it('leaves an item that does not fit for a later batch, in its turn', async () => {
    const g = gatedFlush<string>();
    // Two items of one letter never share a batch.
    const add = coalesce(g.flush, { fits: (batch, item) => !batch.some((b) => b[0] === item[0]) });
    const results = ['a1', 'a2', 'b1', 'a3', 'c1', 'b2'].map(add);
    await g.releaseAll();
    await Promise.all(results);
    expect(g.batches).toEqual([['a1'], ['a2', 'b1', 'c1'], ['a3', 'b2']]);
  });

  it('never runs items of one exclusive key in two flushes at once; they may share one', async () => {
    const g = gatedFlush<string>();
    const add = coalesce(g.flush, { inFlight: 3, exclusive: (item) => item[0]! });
    const results = ['a1', 'a2', 'b1', 'a3', 'c1', 'b2'].map(add);
    // a1 runs; a2 and a3 wait for it, b1 takes the second flush, c1 the third (b2 waits for b1).
    expect(g.batches).toEqual([['a1'], ['b1'], ['c1']]);
    await g.releaseAll();
    expect(await Promise.all(results)).toEqual(['done a1', 'done a2', 'done b1', 'done a3', 'done c1', 'done b2']);
    // When a1's flush ended, a2 and a3 went together (and b2 waited for b1).
    expect(g.batches.slice(3)).toEqual([['a2', 'a3'], ['b2']]);
  });

  it('gives every caller of a failed flush its error, and goes on with the next', async () => {
    let calls = 0;
    const add = coalesce<number, number>(async (items) => {
      calls++;
      if (items.includes(2)) throw new Error('refused');
      return items.map((i) => i * 10);
    });
    const [a, b, c] = [1, 2, 3].map((i) => add(i).catch((e: Error) => e.message));
    expect(await Promise.all([a, b, c])).toEqual([10, 'refused', 'refused']);
    expect(calls).toBe(2);
  });
});
