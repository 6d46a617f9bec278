import type { RequestContext } from '../../context.js';
import type { ShipmentStatus } from '../../generated/prisma/client.js';
import { DomainError } from '../../kernel/errors.js';
import { followEvents } from '../events/following/followed-stream.js';
import type { PublishedEvent } from '../events/publisher/published-event.js';
import { checkFilterIds } from '../filter-ids.js';
import { orgId } from '../tenant.js';
import { getShipment } from './shipment-queries.js';
import { SHIPMENT_WITH_LINES, type ShipmentWithLines } from './shipment-shape.js';

/** States a shipment does not leave: a stream following one shipment ends after reaching one. */
const FINAL: ShipmentStatus[] = ['DELIVERED', 'CANCELLED'];
/** A shipment only moves forward in this order (cancel comes after any state it starts from), so each state is reached once. */
const RANK: Record<ShipmentStatus, number> = { RESERVED: 0, PICKED: 1, PACKED: 2, SHIPPED: 3, DELIVERED: 4, CANCELLED: 5 };

/** A message of shipmentChanged: a move (a `shipment.moved` event) with the shipment as it is when the event arrives. */
export interface ShipmentChange {
  /** The outbox event; null in the first message of a stream following one shipment (its state then). */
  eventId: string | null;
  occurredAt: Date;
  from: ShipmentStatus | null;
  to: ShipmentStatus;
  shipment: ShipmentWithLines;
}

export interface ShipmentChangeFilter {
  id?: string | null;
  locationId?: string | null;
}

const changeOf = (event: PublishedEvent, shipment: ShipmentWithLines): ShipmentChange => ({
  eventId: String(event.id),
  occurredAt: new Date(event.createdAt),
  from: (event.payload.from as ShipmentStatus | null) ?? null,
  to: event.payload.to as ShipmentStatus,
  shipment,
});

/**
 * The organization's shipment moves (created, picked, packed, shipped, delivered, cancelled), made through any
 * instance, of one shipment (`id`: the shipment now first, then each move, ending after DELIVERED or
 * CANCELLED) or at one location (`locationId`: each move from now on). Exactly one of them: VALIDATION_ERROR
 * otherwise; unknown or foreign ids: NOT_FOUND. The moves that arrive together cost one read of their shipments.
 */
export async function shipmentChanges(ctx: RequestContext, filter: ShipmentChangeFilter): Promise<AsyncIterableIterator<ShipmentChange>> {
  const { id, locationId } = filter;
  if (!id === !locationId) {
    throw new DomainError('VALIDATION_ERROR', 'Give a shipment id or a locationId, not both', { details: { id: ['Give id or locationId, exactly one'] } });
  }
  if (locationId) await checkFilterIds(ctx, { locationId });
  // Following one shipment: a move its first message already shows (committed before, published after) is not sent.
  let reached = -1;
  return followEvents<ShipmentChange>(ctx, {
    match: (event) => event.type === 'shipment.moved' && (id ? event.subjectId === id : event.locationId === locationId),
    start: async () => {
      if (!id) return { values: [] };
      const shipment = await getShipment(ctx, id);
      reached = RANK[shipment.status];
      return { values: [{ eventId: null, occurredAt: shipment.updatedAt, from: null, to: shipment.status, shipment }], end: FINAL.includes(shipment.status) };
    },
    take: async (published) => {
      const events = id ? published.filter((event) => RANK[event.payload.to as ShipmentStatus] > reached) : published;
      if (!events.length) return { values: [] };
      if (id) reached = Math.max(...events.map((event) => RANK[event.payload.to as ShipmentStatus]));
      const ids = [...new Set(events.map((event) => event.subjectId!))];
      const shipments = await ctx.prisma.shipment.findMany({ where: { id: { in: ids }, organizationId: orgId(ctx) }, ...SHIPMENT_WITH_LINES });
      const byId = new Map(shipments.map((shipment) => [shipment.id, shipment]));
      const values = events.flatMap((event) => {
        const shipment = byId.get(event.subjectId!);
        return shipment ? [changeOf(event, shipment)] : [];
      });
      return { values, end: Boolean(id) && values.some((change) => FINAL.includes(change.to)) };
    },
  });
}
