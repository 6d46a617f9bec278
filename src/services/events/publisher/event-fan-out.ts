import type { PublishedEvent } from './published-event.js';

/** Something on this instance that takes published events: GraphQL subscriptions now; webhooks and the alert evaluator later. */
export type EventSink = (events: readonly PublishedEvent[]) => void;

/** A live stream's limit of events waiting for a slow reader; past it the stream ends (the client resubscribes). */
const STREAM_BACKLOG = 1_000;

/**
 * Each instance's registry of event sinks: the channel (LISTEN/NOTIFY, or in-process on PGlite) delivers every
 * published batch here once, in publishing order, and each sink takes it. A sink that throws is logged and
 * does not stop the others.
 */
export class EventFanOut {
  private readonly sinks = new Map<string, EventSink>();
  private readonly streams = new Map<(events: readonly PublishedEvent[]) => void, () => void>();

  constructor(private readonly log: (message: string) => void = () => {}) {
    this.sinks.set('subscriptions', (events) => {
      for (const stream of [...this.streams.keys()]) stream(events);
    });
  }

  /** Registers a sink under a name (one per name); returns its removal. */
  register(name: string, sink: EventSink): () => void {
    if (this.sinks.has(name)) throw new Error(`event sink ${name} is registered already`);
    this.sinks.set(name, sink);
    return () => this.sinks.delete(name);
  }

  deliver(events: readonly PublishedEvent[]): void {
    if (!events.length) return;
    for (const [name, sink] of this.sinks) {
      try {
        sink(events);
      } catch (error) {
        this.log(`event sink ${name}: ${(error as Error).message}`);
      }
    }
  }

  /**
   * The events of one organization that `match` takes, from now on, as a stream (a GraphQL subscription's
   * source). A plain iterator, so a client going away (return()) ends it at once.
   */
  stream(organizationId: string, match: (event: PublishedEvent) => boolean): AsyncIterableIterator<PublishedEvent> {
    const batches = this.batches(organizationId, match);
    let pending: PublishedEvent[] = [];
    const iterator: AsyncIterableIterator<PublishedEvent> = {
      async next() {
        while (!pending.length) {
          const batch = await batches.next();
          if (batch.done) return { done: true, value: undefined };
          pending = batch.value;
        }
        return { done: false, value: pending.shift()! };
      },
      async return() {
        await batches.return!();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  /**
   * As `stream`, but each step takes every matching event waiting (never an empty list), so that a reader can
   * handle what arrived together at once (one read for a generation's many recommendations, say).
   */
  batches(organizationId: string, match: (event: PublishedEvent) => boolean): AsyncIterableIterator<PublishedEvent[]> {
    let queue: PublishedEvent[] = [];
    let wake: (() => void) | null = null;
    let done = false;
    const take = (events: readonly PublishedEvent[]) => {
      for (const event of events) if (event.organizationId === organizationId && match(event)) queue.push(event);
      if (queue.length > STREAM_BACKLOG) finish();
      wake?.();
    };
    const finish = () => {
      done = true;
      this.streams.delete(take);
      wake?.();
    };
    this.streams.set(take, finish);
    const iterator: AsyncIterableIterator<PublishedEvent[]> = {
      async next() {
        while (!done && !queue.length) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        if (done) return { done: true, value: undefined };
        const taken = queue;
        queue = [];
        return { done: false, value: taken };
      },
      async return() {
        finish();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  /** Live streams on this instance (tests, metrics). */
  get streamCount(): number {
    return this.streams.size;
  }

  close(): void {
    for (const finish of [...this.streams.values()]) finish();
  }
}
