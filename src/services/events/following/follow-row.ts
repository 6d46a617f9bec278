import type { RequestContext } from '../../../context.js';
import type { EventType } from '../../../kernel/event-types.js';
import { followEvents } from './followed-stream.js';

export interface RowFollowing<T> {
  /** The event types written when the row changes, about it (subjectId = its id). */
  types: readonly EventType[];
  subjectId: string;
  /** The row, scoped to the caller's organization (throws NOT_FOUND when unknown or foreign). */
  read: () => Promise<T>;
  changed: (next: T, last: T) => boolean;
  finished: (row: T) => boolean;
}

/**
 * One row as it moves: the row now, then again each time an event names it and the re-read row `changed`,
 * ending after a row that is `finished`. Events that arrive together cost one read; an event for a change the
 * first read already showed sends nothing.
 */
export function followRow<T>(ctx: RequestContext, row: RowFollowing<T>): Promise<AsyncIterableIterator<T>> {
  let last: T;
  return followEvents(ctx, {
    match: (event) => event.subjectId === row.subjectId && row.types.includes(event.type),
    start: async () => {
      last = await row.read();
      return { values: [last], end: row.finished(last) };
    },
    take: async () => {
      const next = await row.read();
      if (!row.changed(next, last)) return { values: [] };
      last = next;
      return { values: [next], end: row.finished(next) };
    },
  });
}
