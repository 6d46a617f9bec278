import type { RequestContext } from '../../../context.js';
import { DomainError } from '../../../kernel/errors.js';
import type { EventType } from '../../../kernel/event-types.js';
import { checkFilterIds } from '../../filter-ids.js';
import type { PublishedEvent } from '../publisher/published-event.js';
import { followEvents } from './followed-stream.js';

/** A message of a status subscription: a move (an event whose payload has `from` and `to`) with the record as it is when the move arrives. */
export interface StatusMove<S extends string, R> {
  /** The outbox event; null in the first message of a stream following one record (its state then). */
  eventId: string | null;
  occurredAt: Date;
  from: S | null;
  to: S;
  record: R;
}

export interface StatusMoves<S extends string, R extends { id: string; status: S; updatedAt: Date }> {
  /** The event every move of such a record writes (subjectId: the record, locationId: its location). */
  type: EventType;
  /** What the record is called in messages ("shipment", "booking"). */
  noun: string;
  /** Each state's place: a record only moves to a higher rank (a cancellation ranks after any state it leaves), so each state is reached once. */
  rank: Record<S, number>;
  /** States a record does not leave: a stream following one record ends after reaching one. */
  final: readonly S[];
  /** One record of the caller's organization; NOT_FOUND when unknown or foreign. */
  readOne: (id: string) => Promise<R>;
  /** The organization's records among `ids` (those gone are left out). */
  readMany: (ids: string[]) => Promise<R[]>;
}

export interface StatusMoveFilter {
  id?: string | null;
  locationId?: string | null;
}

/**
 * The organization's moves of one kind of record made through any instance, of one record (`id`: the record
 * now first, then each move, ending after a final state) or at one location (`locationId`: each move from now
 * on). Exactly one of them: VALIDATION_ERROR otherwise; unknown or foreign ids: NOT_FOUND. The moves that arrive
 * together cost one read of their records.
 */
export async function statusMoves<S extends string, R extends { id: string; status: S; updatedAt: Date }>(
  ctx: RequestContext,
  kind: StatusMoves<S, R>,
  filter: StatusMoveFilter,
): Promise<AsyncIterableIterator<StatusMove<S, R>>> {
  const { id, locationId } = filter;
  if (!id === !locationId) {
    throw new DomainError('VALIDATION_ERROR', `Give a ${kind.noun} id or a locationId, not both`, { details: { id: ['Give id or locationId, exactly one'] } });
  }
  if (locationId) await checkFilterIds(ctx, { locationId });
  const moveOf = (event: PublishedEvent, record: R): StatusMove<S, R> => ({
    eventId: String(event.id),
    occurredAt: new Date(event.createdAt),
    from: (event.payload.from as S | null) ?? null,
    to: event.payload.to as S,
    record,
  });
  // Following one record: a move its first message already shows (committed before, published after) is not sent.
  let reached = -1;
  return followEvents<StatusMove<S, R>>(ctx, {
    match: (event) => event.type === kind.type && (id ? event.subjectId === id : event.locationId === locationId),
    start: async () => {
      if (!id) return { values: [] };
      const record = await kind.readOne(id);
      reached = kind.rank[record.status];
      return { values: [{ eventId: null, occurredAt: record.updatedAt, from: null, to: record.status, record }], end: kind.final.includes(record.status) };
    },
    take: async (published) => {
      const events = id ? published.filter((event) => kind.rank[event.payload.to as S] > reached) : published;
      if (!events.length) return { values: [] };
      if (id) reached = Math.max(...events.map((event) => kind.rank[event.payload.to as S]));
      const records = await kind.readMany([...new Set(events.map((event) => event.subjectId!))]);
      const byId = new Map(records.map((record) => [record.id, record]));
      const values = events.flatMap((event) => {
        const record = byId.get(event.subjectId!);
        return record ? [moveOf(event, record)] : [];
      });
      return { values, end: Boolean(id) && values.some((move) => kind.final.includes(move.to)) };
    },
  });
}
