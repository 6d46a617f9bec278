/** What one poll found: values to send, in order, and whether the stream ends after them. */
export interface Polled<T> {
  values: T[];
  end?: boolean;
}

/**
 * A subscription's event stream fed by polling the database, so that it follows work done by any server
 * instance: `initial` is sent at once, then `poll` runs every `pollMs` until a poll says `end` (after its
 * values are sent). A plain iterator rather than an async generator, so that a client going away
 * (return()) ends the stream at once, mid-pause, not at the next change.
 */
export function pollingStream<T>(pollMs: number, initial: Polled<T>, poll: () => Promise<Polled<T>>): AsyncIterableIterator<T> {
  const queue = [...initial.values];
  let ending = initial.end === true;
  let done = false;
  let wake: (() => void) | null = null;
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(stop, pollMs);
      function stop() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = stop;
    });
  const end = (): IteratorResult<T> => {
    done = true;
    wake?.();
    return { done: true, value: undefined };
  };
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      while (!done) {
        if (queue.length) return { done: false, value: queue.shift()! };
        if (ending) break;
        await pause();
        if (done) break;
        const found = await poll();
        queue.push(...found.values);
        ending = found.end === true;
      }
      return end();
    },
    async return() {
      return end();
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/**
 * One row as it moves: the row now, then again each time `changed` says it did, ending after a row that
 * is `finished`. The first read happens before the stream starts, so an unknown or foreign id is an
 * error result rather than an empty stream.
 */
export async function followRow<T>(
  read: () => Promise<T>,
  rules: { pollMs: number; changed: (next: T, last: T) => boolean; finished: (row: T) => boolean },
): Promise<AsyncIterableIterator<T>> {
  let last = await read();
  return pollingStream(rules.pollMs, { values: [last], end: rules.finished(last) }, async () => {
    const row = await read();
    if (!rules.changed(row, last)) return { values: [] };
    last = row;
    return { values: [row], end: rules.finished(row) };
  });
}
