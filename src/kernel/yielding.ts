import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest stretch work proportional to data may hold the event loop before it lets other requests in. */
export const SLICE_MS = 20;

/**
 * `fn` over every item, in order, giving the event loop back whenever SLICE_MS have passed since it last
 * did: a long list costs other requests at most a slice of waiting at a time, never the whole list.
 */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
  const results: R[] = [];
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    results.push(fn(items[i]!, i));
  }
  return results;
}

/**
 * For loops that cannot use mapInSlices (they stop early, or nest): `await pause()` between steps gives the
 * event loop back whenever SLICE_MS have passed since it last did.
 */
export function sliceClock(): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart <= SLICE_MS) return;
    await nextTurn();
    sliceStart = performance.now();
  };
}
