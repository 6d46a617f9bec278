import type { RequestContext } from '../../context.js';
import type { ShipmentStatus } from '../../generated/prisma/client.js';
import { type StatusMove, type StatusMoveFilter, statusMoves } from '../events/following/status-moves.js';
import { orgId } from '../tenant.js';
import { getShipment } from './shipment-queries.js';
import { SHIPMENT_WITH_LINES, type ShipmentWithLines } from './shipment-shape.js';

/** A message of shipmentChanged: a move (a `shipment.moved` event) with the shipment as it is when the event arrives. */
export type ShipmentChange = StatusMove<ShipmentStatus, ShipmentWithLines>;

/**
 * The organization's shipment moves (created, picked, packed, shipped, delivered, cancelled), made through any
 * instance, of one shipment (`id`: the shipment now first, then each move, ending after DELIVERED or
 * CANCELLED) or at one location (`locationId`: each move from now on).
 */
export function shipmentChanges(ctx: RequestContext, filter: StatusMoveFilter): Promise<AsyncIterableIterator<ShipmentChange>> {
  return statusMoves<ShipmentStatus, ShipmentWithLines>(
    ctx,
    {
      type: 'shipment.moved',
      noun: 'shipment',
      rank: { RESERVED: 0, PICKED: 1, PACKED: 2, SHIPPED: 3, DELIVERED: 4, CANCELLED: 5 },
      final: ['DELIVERED', 'CANCELLED'],
      readOne: (id) => getShipment(ctx, id),
      readMany: (ids) => ctx.prisma.shipment.findMany({ where: { id: { in: ids }, organizationId: orgId(ctx) }, ...SHIPMENT_WITH_LINES }),
    },
    filter,
  );
}
