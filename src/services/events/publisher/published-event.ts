import type { Db } from '../../../db/transactions.js';
import type { EventType } from '../../../kernel/event-types.js';

/** Where an event stands in the publishing order: (txid, id), compared as a pair. */
export interface EventPosition {
  txid: bigint;
  id: bigint;
}

/** An outbox row as the publisher hands it on. */
export interface PublishedEvent {
  id: bigint;
  txid: bigint;
  organizationId: string;
  type: EventType;
  productId: string | null;
  locationId: string | null;
  subjectId: string | null;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** Most events one batch publishes (and one instance reads per notification). */
export const BATCH_LIMIT = 500;

/**
 * The events after `from` up to `to` (inclusive; none: no upper bound but the settled one), in publishing
 * order. Only rows of transactions older than every transaction still running are read: those are final,
 * so a row that commits later can never land before the position returned (docs/events.md, ordering).
 */
export function readEventsAfter(db: Db, from: EventPosition, to?: EventPosition): Promise<PublishedEvent[]> {
  const upTo = to ? [to.txid, to.id] : null;
  return db.$queryRaw<PublishedEvent[]>`
    SELECT id, txid, "organizationId", type, "productId", "locationId", "subjectId", payload, "createdAt"
    FROM domain_events
    WHERE (txid, id) > (${from.txid}, ${from.id})
      AND txid < (pg_snapshot_xmin(pg_current_snapshot()))::text::bigint
      AND (${upTo === null} OR (txid, id) <= (${upTo?.[0] ?? 0n}, ${upTo?.[1] ?? 0n}))
    ORDER BY txid, id
    LIMIT ${BATCH_LIMIT}`;
}

/** An event without its payload and references: enough to tell whether a consumer has anything to do with it. */
export type EventHead = Pick<PublishedEvent, 'id' | 'txid' | 'organizationId' | 'type'>;

/**
 * The heads of the events readEventsAfter would answer (the same rows, the same order): a consumer that takes few
 * of them (alerts without rules, webhooks without endpoints) reads these first and payloads only when it must,
 * with readEventsAfter up to the last head.
 */
export function readEventHeadsAfter(db: Db, from: EventPosition): Promise<EventHead[]> {
  return db.$queryRaw<EventHead[]>`
    SELECT id, txid, "organizationId", type
    FROM domain_events
    WHERE (txid, id) > (${from.txid}, ${from.id})
      AND txid < (pg_snapshot_xmin(pg_current_snapshot()))::text::bigint
    ORDER BY txid, id
    LIMIT ${BATCH_LIMIT}`;
}

export const positionOf = (event: Pick<PublishedEvent, 'txid' | 'id'>): EventPosition => ({ txid: event.txid, id: event.id });

export const positionText = (p: EventPosition) => `${p.txid}:${p.id}`;

export function parsePosition(text: string): EventPosition | null {
  const match = /^(\d{1,20}):(\d{1,20})$/.exec(text);
  return match ? { txid: BigInt(match[1]!), id: BigInt(match[2]!) } : null;
}
