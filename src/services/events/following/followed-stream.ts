import type { RequestContext } from '../../../context.js';
import { DomainError } from '../../../kernel/errors.js';
import { orgId } from '../../tenant.js';
import type { PublishedEvent } from '../publisher/published-event.js';

/** What a step of a followed stream sends, in order, and whether the stream ends after it. */
export interface Step<T> {
  values: T[];
  end?: boolean;
}

export interface Following<T> {
  /** Which of the organization's published events concern the stream (the organization is checked first, by the fan-out). */
  match: (event: PublishedEvent) => boolean;
  /** The first message(s): read once the stream listens, so a change committed in between is not lost (it may be told twice). */
  start: () => Promise<Step<T>>;
  /** What the events that arrived together say: often a re-read, by id, of the one row they name. */
  take: (events: PublishedEvent[]) => Promise<Step<T>>;
}

/**
 * A subscription's stream fed by the published domain events (from any instance, docs/events.md): what
 * `start` reads, then what `take` makes of each batch of matching events, until a step says `end`. An error
 * from `start` (NOT_FOUND) is thrown here, before the stream exists. A plain iterator, so a client going
 * away (return()) ends it at once, mid-wait.
 */
export async function followEvents<T>(ctx: RequestContext, following: Following<T>): Promise<AsyncIterableIterator<T>> {
  if (!ctx.app.events) throw new DomainError('INTERNAL_SERVER_ERROR', 'Events are not delivered by this process');
  const events = ctx.app.events.batches(orgId(ctx), following.match);
  let first: Step<T>;
  try {
    first = await following.start();
  } catch (error) {
    await events.return!();
    throw error;
  }
  const queue = [...first.values];
  let ending = first.end === true;
  let done = false;
  const end = async (): Promise<IteratorResult<T>> => {
    done = true;
    await events.return!();
    return { done: true, value: undefined };
  };
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      while (!done) {
        if (queue.length) return { done: false, value: queue.shift()! };
        if (ending) break;
        const batch = await events.next();
        if (batch.done || done) break;
        const step = await following.take(batch.value);
        queue.push(...step.values);
        ending = step.end === true;
      }
      return end();
    },
    return: end,
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
